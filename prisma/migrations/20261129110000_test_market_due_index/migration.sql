-- The closing sweep now covers the whole test environment (seeded markets too): its index follows the query.
-- DropIndex
DROP INDEX "markets_workspace_id_close_time_idx";

-- CreateIndex
CREATE INDEX "markets_environment_close_time_idx" ON "markets"("environment", "close_time");
