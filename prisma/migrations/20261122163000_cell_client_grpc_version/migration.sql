-- Go cells may build their client against another grpc-go: part of the cell's client.
ALTER TABLE "Cell" ADD COLUMN "clientGrpcVersion" TEXT;
