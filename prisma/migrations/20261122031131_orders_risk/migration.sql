-- AlterTable
ALTER TABLE "fills" ADD COLUMN     "realized_pnl" DECIMAL(24,6) NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "orders_subaccount_id_created_at_idx" ON "orders"("subaccount_id", "created_at");

-- CreateIndex
CREATE INDEX "fills_subaccount_id_created_at_idx" ON "fills"("subaccount_id", "created_at");
