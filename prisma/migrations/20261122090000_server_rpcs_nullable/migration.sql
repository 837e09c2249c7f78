-- AlterTable
ALTER TABLE "CellResult" ALTER COLUMN "serverRpcs" DROP NOT NULL;
