-- CreateEnum
CREATE TYPE "Environment" AS ENUM ('test', 'live');

-- CreateEnum
CREATE TYPE "SubaccountStatus" AS ENUM ('active', 'deleted');

-- CreateEnum
CREATE TYPE "Exchange" AS ENUM ('kalshi', 'polymarket');

-- CreateEnum
CREATE TYPE "Venue" AS ENUM ('sim_kalshi', 'sim_polymarket', 'kalshi', 'polymarket');

-- CreateEnum
CREATE TYPE "MarketStatus" AS ENUM ('open', 'closed', 'settled');

-- CreateEnum
CREATE TYPE "OrderSide" AS ENUM ('yes', 'no');

-- CreateEnum
CREATE TYPE "OrderAction" AS ENUM ('buy', 'sell');

-- CreateEnum
CREATE TYPE "OrderType" AS ENUM ('limit', 'market');

-- CreateEnum
CREATE TYPE "TimeInForce" AS ENUM ('gtc', 'ioc', 'fok');

-- CreateEnum
CREATE TYPE "OrderStatus" AS ENUM ('pending', 'open', 'partially_filled', 'filled', 'canceled', 'rejected', 'expired', 'unknown');

-- CreateEnum
CREATE TYPE "ComplexOrderStatus" AS ENUM ('pending', 'working', 'completed', 'canceled', 'failed');

-- CreateEnum
CREATE TYPE "IdempotencyState" AS ENUM ('in_flight', 'completed');

-- CreateTable
CREATE TABLE "workspaces" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "trading_halted" BOOLEAN NOT NULL DEFAULT false,
    "default_rate_limit" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "name" TEXT,
    "secret_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "rate_limit" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_tokens" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "dashboard_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subaccounts" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "name" TEXT NOT NULL,
    "status" "SubaccountStatus" NOT NULL DEFAULT 'active',
    "cash_balance" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "subaccounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_credentials" (
    "id" TEXT NOT NULL,
    "subaccount_id" TEXT NOT NULL,
    "exchange" "Exchange" NOT NULL,
    "kek_id" TEXT NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "risk_limits" (
    "subaccount_id" TEXT NOT NULL,
    "max_order_notional" DECIMAL(24,6),
    "max_position_per_market" DECIMAL(24,6),
    "max_gross_exposure" DECIMAL(24,6),
    "max_daily_realized_loss" DECIMAL(24,6),
    "max_open_orders" INTEGER,
    "max_orders_per_minute" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "risk_limits_pkey" PRIMARY KEY ("subaccount_id")
);

-- CreateTable
CREATE TABLE "markets" (
    "id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "venue" "Venue" NOT NULL,
    "venue_market_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "category" TEXT NOT NULL,
    "status" "MarketStatus" NOT NULL DEFAULT 'open',
    "tick_size" DECIMAL(10,6) NOT NULL,
    "min_size" DECIMAL(24,6) NOT NULL,
    "fair_value" DECIMAL(10,6),
    "close_time" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "search_vector" tsvector,

    CONSTRAINT "markets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "subaccount_id" TEXT NOT NULL,
    "market_id" TEXT NOT NULL,
    "complex_order_id" TEXT,
    "venue" "Venue" NOT NULL,
    "side" "OrderSide" NOT NULL,
    "action" "OrderAction" NOT NULL,
    "type" "OrderType" NOT NULL,
    "time_in_force" "TimeInForce" NOT NULL,
    "price" DECIMAL(10,6),
    "quantity" DECIMAL(24,6) NOT NULL,
    "filled_quantity" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "average_fill_price" DECIMAL(10,6),
    "fees_paid" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "status" "OrderStatus" NOT NULL DEFAULT 'pending',
    "client_order_id" TEXT NOT NULL,
    "venue_order_id" TEXT,
    "reject_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "complex_orders" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "subaccount_id" TEXT NOT NULL,
    "market_id" TEXT NOT NULL,
    "side" "OrderSide" NOT NULL,
    "action" "OrderAction" NOT NULL,
    "strategy" TEXT NOT NULL,
    "quantity" DECIMAL(24,6) NOT NULL,
    "limit_price" DECIMAL(10,6),
    "status" "ComplexOrderStatus" NOT NULL DEFAULT 'pending',
    "prediction" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "complex_orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "child_orders" (
    "id" TEXT NOT NULL,
    "complex_order_id" TEXT NOT NULL,
    "order_id" TEXT,
    "venue" "Venue" NOT NULL,
    "price" DECIMAL(10,6),
    "quantity" DECIMAL(24,6) NOT NULL,
    "scheduled_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "child_orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fills" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "subaccount_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "market_id" TEXT NOT NULL,
    "venue" "Venue" NOT NULL,
    "venue_fill_id" TEXT NOT NULL,
    "side" "OrderSide" NOT NULL,
    "action" "OrderAction" NOT NULL,
    "price" DECIMAL(10,6) NOT NULL,
    "quantity" DECIMAL(24,6) NOT NULL,
    "fee" DECIMAL(24,6) NOT NULL,
    "is_taker" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "fills_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "receipts" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "subaccount_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "content_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "receipts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "positions" (
    "subaccount_id" TEXT NOT NULL,
    "market_id" TEXT NOT NULL,
    "side" "OrderSide" NOT NULL,
    "quantity" DECIMAL(24,6) NOT NULL,
    "average_cost" DECIMAL(10,6) NOT NULL,
    "realized_pnl" DECIMAL(24,6) NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "positions_pkey" PRIMARY KEY ("subaccount_id","market_id","side")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "api_key_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "state" "IdempotencyState" NOT NULL DEFAULT 'in_flight',
    "response_status" INTEGER,
    "response_body" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("api_key_id","key")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_secret_hash_key" ON "api_keys"("secret_hash");

-- CreateIndex
CREATE INDEX "api_keys_workspace_id_idx" ON "api_keys"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_tokens_secret_hash_key" ON "dashboard_tokens"("secret_hash");

-- CreateIndex
CREATE INDEX "dashboard_tokens_workspace_id_idx" ON "dashboard_tokens"("workspace_id");

-- CreateIndex
CREATE INDEX "subaccounts_workspace_id_environment_status_idx" ON "subaccounts"("workspace_id", "environment", "status");

-- CreateIndex
CREATE UNIQUE INDEX "exchange_credentials_subaccount_id_exchange_key" ON "exchange_credentials"("subaccount_id", "exchange");

-- CreateIndex
CREATE INDEX "markets_environment_status_idx" ON "markets"("environment", "status");

-- CreateIndex
CREATE INDEX "markets_search_vector_idx" ON "markets" USING GIN ("search_vector");

-- CreateIndex
CREATE UNIQUE INDEX "markets_venue_venue_market_id_key" ON "markets"("venue", "venue_market_id");

-- CreateIndex
CREATE INDEX "orders_workspace_id_environment_id_idx" ON "orders"("workspace_id", "environment", "id");

-- CreateIndex
CREATE INDEX "orders_subaccount_id_status_idx" ON "orders"("subaccount_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "orders_workspace_id_client_order_id_key" ON "orders"("workspace_id", "client_order_id");

-- CreateIndex
CREATE INDEX "complex_orders_workspace_id_environment_id_idx" ON "complex_orders"("workspace_id", "environment", "id");

-- CreateIndex
CREATE UNIQUE INDEX "child_orders_order_id_key" ON "child_orders"("order_id");

-- CreateIndex
CREATE INDEX "child_orders_complex_order_id_idx" ON "child_orders"("complex_order_id");

-- CreateIndex
CREATE INDEX "fills_workspace_id_environment_id_idx" ON "fills"("workspace_id", "environment", "id");

-- CreateIndex
CREATE INDEX "fills_order_id_idx" ON "fills"("order_id");

-- CreateIndex
CREATE UNIQUE INDEX "fills_venue_venue_fill_id_key" ON "fills"("venue", "venue_fill_id");

-- CreateIndex
CREATE INDEX "receipts_workspace_id_environment_id_idx" ON "receipts"("workspace_id", "environment", "id");

-- CreateIndex
CREATE INDEX "idempotency_records_created_at_idx" ON "idempotency_records"("created_at");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dashboard_tokens" ADD CONSTRAINT "dashboard_tokens_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subaccounts" ADD CONSTRAINT "subaccounts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_credentials" ADD CONSTRAINT "exchange_credentials_subaccount_id_fkey" FOREIGN KEY ("subaccount_id") REFERENCES "subaccounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "risk_limits" ADD CONSTRAINT "risk_limits_subaccount_id_fkey" FOREIGN KEY ("subaccount_id") REFERENCES "subaccounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_subaccount_id_fkey" FOREIGN KEY ("subaccount_id") REFERENCES "subaccounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_market_id_fkey" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_complex_order_id_fkey" FOREIGN KEY ("complex_order_id") REFERENCES "complex_orders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "complex_orders" ADD CONSTRAINT "complex_orders_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "complex_orders" ADD CONSTRAINT "complex_orders_subaccount_id_fkey" FOREIGN KEY ("subaccount_id") REFERENCES "subaccounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "complex_orders" ADD CONSTRAINT "complex_orders_market_id_fkey" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "child_orders" ADD CONSTRAINT "child_orders_complex_order_id_fkey" FOREIGN KEY ("complex_order_id") REFERENCES "complex_orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "child_orders" ADD CONSTRAINT "child_orders_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fills" ADD CONSTRAINT "fills_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fills" ADD CONSTRAINT "fills_subaccount_id_fkey" FOREIGN KEY ("subaccount_id") REFERENCES "subaccounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fills" ADD CONSTRAINT "fills_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fills" ADD CONSTRAINT "fills_market_id_fkey" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_subaccount_id_fkey" FOREIGN KEY ("subaccount_id") REFERENCES "subaccounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "positions" ADD CONSTRAINT "positions_subaccount_id_fkey" FOREIGN KEY ("subaccount_id") REFERENCES "subaccounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "positions" ADD CONSTRAINT "positions_market_id_fkey" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Full-text search over markets (outside Prisma's model): the vector is kept by a trigger, so
-- every write path, Prisma or raw SQL, keeps it current. The 'simple' configuration keeps every
-- word (English stopwords like "will" are what users type) and prefix queries stand in for stemming.
CREATE FUNCTION "markets_search_vector_update"() RETURNS trigger AS $$
BEGIN
  NEW."search_vector" :=
    setweight(to_tsvector('simple', coalesce(NEW."title", '')), 'A') ||
    setweight(to_tsvector('simple', coalesce(NEW."venue_market_id", '')), 'A') ||
    setweight(to_tsvector('simple', coalesce(NEW."category", '')), 'B') ||
    setweight(to_tsvector('simple', coalesce(NEW."description", '')), 'C');
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER "markets_search_vector"
  BEFORE INSERT OR UPDATE OF "title", "venue_market_id", "category", "description" ON "markets"
  FOR EACH ROW EXECUTE FUNCTION "markets_search_vector_update"();
