-- AlterTable: "recorded_seq" BIGSERIAL NOT NULL, written in steps so that the fills recorded before
-- this migration are numbered in id order (the order their positions were replayed in until now),
-- not in the table's physical order.
CREATE SEQUENCE "fills_recorded_seq_seq";
ALTER TABLE "fills" ADD COLUMN "recorded_seq" BIGINT;
UPDATE "fills" f SET "recorded_seq" = n.seq
  FROM (SELECT id, row_number() OVER (ORDER BY id) AS seq FROM "fills") n
 WHERE f.id = n.id;
SELECT setval('"fills_recorded_seq_seq"', coalesce((SELECT max("recorded_seq") FROM "fills"), 0) + 1, false);
ALTER TABLE "fills" ALTER COLUMN "recorded_seq" SET DEFAULT nextval('"fills_recorded_seq_seq"'),
                    ALTER COLUMN "recorded_seq" SET NOT NULL;
ALTER SEQUENCE "fills_recorded_seq_seq" OWNED BY "fills"."recorded_seq";
