-- Average prices are kept to 8 decimal places everywhere (docs/decimals.md): an order's average
-- fill price and a position's average cost widen from numeric(10,6) to numeric(12,8), which holds
-- every value the old type held.
-- AlterTable
ALTER TABLE "orders" ALTER COLUMN "average_fill_price" SET DATA TYPE DECIMAL(12,8);

-- AlterTable
ALTER TABLE "positions" ALTER COLUMN "average_cost" SET DATA TYPE DECIMAL(12,8);
