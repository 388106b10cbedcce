-- A Kalshi credential says which Kalshi environment issued its key (`demo` or `production`); a key
-- works only there. Rows attached before this column have none: their environment is unknown and
-- they are not used to trade until attached again (docs/credentials.md). Polymarket rows: null.
-- CreateEnum
CREATE TYPE "KalshiEnvironment" AS ENUM ('demo', 'production');

-- AlterTable
ALTER TABLE "exchange_credentials" ADD COLUMN "environment" "KalshiEnvironment";
