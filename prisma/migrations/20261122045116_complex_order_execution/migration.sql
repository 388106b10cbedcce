-- CreateEnum
CREATE TYPE "ChildOrderStatus" AS ENUM ('scheduled', 'sending', 'sent', 'rejected', 'canceled');

-- AlterTable
ALTER TABLE "complex_orders" ADD COLUMN     "arrival_mid" DECIMAL(12,8),
ADD COLUMN     "completed_at" TIMESTAMPTZ(3),
ADD COLUMN     "duration_seconds" INTEGER,
ADD COLUMN     "end_mid" DECIMAL(12,8),
ADD COLUMN     "idempotency_ref" TEXT,
ADD COLUMN     "predicted_average_price" DECIMAL(12,8),
ADD COLUMN     "predicted_fees" DECIMAL(24,6) NOT NULL,
ADD COLUMN     "predicted_filled_quantity" DECIMAL(24,6) NOT NULL;

-- AlterTable
ALTER TABLE "child_orders" ADD COLUMN     "expected_fees" DECIMAL(24,6) NOT NULL,
ADD COLUMN     "expected_filled_quantity" DECIMAL(24,6) NOT NULL,
ADD COLUMN     "expected_notional" DECIMAL(24,6) NOT NULL,
ADD COLUMN     "market_id" TEXT NOT NULL,
ADD COLUMN     "mid_at_send" DECIMAL(12,8),
ADD COLUMN     "reject_code" TEXT,
ADD COLUMN     "reject_reason" TEXT,
ADD COLUMN     "sent_at" TIMESTAMPTZ(3),
ADD COLUMN     "slice_index" INTEGER,
ADD COLUMN     "status" "ChildOrderStatus" NOT NULL DEFAULT 'scheduled',
ADD COLUMN     "time_in_force" "TimeInForce" NOT NULL;

-- CreateIndex
CREATE INDEX "complex_orders_workspace_id_environment_created_at_idx" ON "complex_orders"("workspace_id", "environment", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "complex_orders_workspace_id_idempotency_ref_key" ON "complex_orders"("workspace_id", "idempotency_ref");

-- CreateIndex
CREATE INDEX "child_orders_status_scheduled_at_idx" ON "child_orders"("status", "scheduled_at");

-- AddForeignKey
ALTER TABLE "child_orders" ADD CONSTRAINT "child_orders_market_id_fkey" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
