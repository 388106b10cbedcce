-- AlterTable
ALTER TABLE "fills" ADD COLUMN     "reversal_reason" TEXT,
ADD COLUMN     "reversed_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "failed_venue_fills" (
    "venue" "Venue" NOT NULL,
    "venue_fill_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "reported_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "failed_venue_fills_pkey" PRIMARY KEY ("venue","venue_fill_id")
);

-- A fill is now updated once, when its venue trade FAILED (reversed_at, reversal_reason; price and
-- quantity never change): the reversal takes its price × quantity off orders.filled_notional itself,
-- in the same transaction (core/services/fillReversals.ts); the insert trigger stays as it is.
