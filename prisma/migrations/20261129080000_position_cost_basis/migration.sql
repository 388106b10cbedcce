-- A position keeps its cost basis, an exact sum at money scale, instead of an average cost rounded
-- to 8 places (30 contracts bought for 19.1 showed a cost of 19.1000001). Existing positions take
-- quantity x average cost, rounded to money scale: exact for every position whose rounding error
-- was under half a millionth of a dollar.
-- AlterTable
ALTER TABLE "positions" ADD COLUMN "cost_basis" DECIMAL(24,6) NOT NULL DEFAULT 0;

UPDATE "positions" SET "cost_basis" = round("quantity" * "average_cost", 6);

ALTER TABLE "positions" DROP COLUMN "average_cost";
