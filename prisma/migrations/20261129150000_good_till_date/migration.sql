-- Good-till-date orders (issue 30): time in force gtd and the order's expires_at, found by the expiry sweep through its index.
-- AlterEnum
ALTER TYPE "TimeInForce" ADD VALUE 'gtd';

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "expires_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "orders_expires_at_idx" ON "orders"("expires_at");
