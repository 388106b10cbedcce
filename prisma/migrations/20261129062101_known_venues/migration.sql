-- The venues become rows rather than an enum: the core writes its venue registry's names here at
-- start-up (core/services/catalog/knownVenues.ts), so adding a venue takes no migration, and every
-- venue column refers to this table, so the database still refuses a venue no module names.
-- Written by hand from `npm run db:diff`'s output: the columns change type in place (no row lost,
-- their indexes kept) instead of being dropped and added.

-- CreateTable
CREATE TABLE "venues" (
    "name" TEXT NOT NULL,

    CONSTRAINT "venues_pkey" PRIMARY KEY ("name")
);

-- The venues every earlier migration knew (the enum's values).
INSERT INTO "venues" ("name") VALUES ('sim_kalshi'), ('sim_polymarket'), ('kalshi'), ('polymarket');

-- AlterTable
ALTER TABLE "markets" ALTER COLUMN "venue" TYPE TEXT USING "venue"::text;
ALTER TABLE "orders" ALTER COLUMN "venue" TYPE TEXT USING "venue"::text;
ALTER TABLE "child_orders" ALTER COLUMN "venue" TYPE TEXT USING "venue"::text;
ALTER TABLE "fills" ALTER COLUMN "venue" TYPE TEXT USING "venue"::text;
ALTER TABLE "failed_venue_fills" ALTER COLUMN "venue" TYPE TEXT USING "venue"::text;

-- DropEnum
DROP TYPE "Venue";

-- AddForeignKey
ALTER TABLE "markets" ADD CONSTRAINT "markets_venue_fkey" FOREIGN KEY ("venue") REFERENCES "venues"("name") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_venue_fkey" FOREIGN KEY ("venue") REFERENCES "venues"("name") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- AddForeignKey
ALTER TABLE "child_orders" ADD CONSTRAINT "child_orders_venue_fkey" FOREIGN KEY ("venue") REFERENCES "venues"("name") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- AddForeignKey
ALTER TABLE "fills" ADD CONSTRAINT "fills_venue_fkey" FOREIGN KEY ("venue") REFERENCES "venues"("name") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- AddForeignKey
ALTER TABLE "failed_venue_fills" ADD CONSTRAINT "failed_venue_fills_venue_fkey" FOREIGN KEY ("venue") REFERENCES "venues"("name") ON DELETE RESTRICT ON UPDATE RESTRICT;
