-- CreateEnum
CREATE TYPE "DeadMansSwitchState" AS ENUM ('armed', 'fired', 'disarmed');

-- CreateTable
CREATE TABLE "dead_mans_switches" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "subaccount_id" TEXT,
    "scope_key" TEXT NOT NULL,
    "state" "DeadMansSwitchState" NOT NULL,
    "timeout_ms" INTEGER NOT NULL,
    "armed_at" TIMESTAMPTZ(3) NOT NULL,
    "last_heartbeat_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "fired_at" TIMESTAMPTZ(3),
    "firings" INTEGER NOT NULL DEFAULT 0,
    "cancel_before" TIMESTAMPTZ(3),
    "cancel_holder" TEXT,
    "cancel_lease_until" TIMESTAMPTZ(3),
    "cancel_completed_at" TIMESTAMPTZ(3),
    "orders_canceled" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dead_mans_switches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "dead_mans_switches_state_expires_at_idx" ON "dead_mans_switches"("state", "expires_at");

-- CreateIndex
CREATE INDEX "dead_mans_switches_cancel_lease_until_idx" ON "dead_mans_switches"("cancel_lease_until");

-- CreateIndex
CREATE UNIQUE INDEX "dead_mans_switches_workspace_id_environment_scope_key_key" ON "dead_mans_switches"("workspace_id", "environment", "scope_key");

-- AddForeignKey
ALTER TABLE "dead_mans_switches" ADD CONSTRAINT "dead_mans_switches_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dead_mans_switches" ADD CONSTRAINT "dead_mans_switches_subaccount_id_fkey" FOREIGN KEY ("subaccount_id") REFERENCES "subaccounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
