-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "cancelRequested" BOOLEAN NOT NULL DEFAULT false;
