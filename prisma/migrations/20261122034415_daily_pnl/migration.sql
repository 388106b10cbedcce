-- CreateTable
CREATE TABLE "daily_pnl" (
    "subaccount_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "realized_pnl" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "fees" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "fill_count" INTEGER NOT NULL DEFAULT 0,
    "volume" DECIMAL(24,6) NOT NULL DEFAULT 0,

    CONSTRAINT "daily_pnl_pkey" PRIMARY KEY ("subaccount_id","day")
);

-- CreateIndex
CREATE INDEX "daily_pnl_workspace_id_environment_day_idx" ON "daily_pnl"("workspace_id", "environment", "day");

-- AddForeignKey
ALTER TABLE "daily_pnl" ADD CONSTRAINT "daily_pnl_subaccount_id_fkey" FOREIGN KEY ("subaccount_id") REFERENCES "subaccounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
