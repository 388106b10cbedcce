-- Markets close and resolve (docs/settlement.md): the lifecycle's paused and determined statuses, a
-- market's result, settlement value and settlement time, the test helpers' private markets, and one
-- settlement per subaccount and market.
-- CreateEnum
CREATE TYPE "MarketResult" AS ENUM ('yes', 'no', 'scalar', 'void');

-- AlterEnum (PostgreSQL 12 and later add values in a transaction; none is used in it)
ALTER TYPE "MarketStatus" ADD VALUE 'paused';
ALTER TYPE "MarketStatus" ADD VALUE 'determined';

-- AlterTable
ALTER TABLE "markets" ADD COLUMN     "result" "MarketResult",
ADD COLUMN     "settled_at" TIMESTAMPTZ(3),
ADD COLUMN     "settlement_value" DECIMAL(10,6),
ADD COLUMN     "workspace_id" TEXT;

-- CreateTable
CREATE TABLE "settlements" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "subaccount_id" TEXT NOT NULL,
    "market_id" TEXT NOT NULL,
    "result" "MarketResult" NOT NULL,
    "settlement_value" DECIMAL(10,6),
    "yes_quantity" DECIMAL(24,6) NOT NULL,
    "no_quantity" DECIMAL(24,6) NOT NULL,
    "cost_basis" DECIMAL(24,6) NOT NULL,
    "payout" DECIMAL(24,6) NOT NULL,
    "fee" DECIMAL(24,6) NOT NULL,
    "realized_pnl" DECIMAL(24,6) NOT NULL,
    "venue_reference" TEXT,
    "settled_at" TIMESTAMPTZ(3) NOT NULL,
    "receipt" JSONB NOT NULL,
    "receipt_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "settlements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "settlements_workspace_id_environment_id_idx" ON "settlements"("workspace_id", "environment", "id");

-- CreateIndex
CREATE UNIQUE INDEX "settlements_subaccount_id_market_id_key" ON "settlements"("subaccount_id", "market_id");

-- AddForeignKey
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_subaccount_id_fkey" FOREIGN KEY ("subaccount_id") REFERENCES "subaccounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_market_id_fkey" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
