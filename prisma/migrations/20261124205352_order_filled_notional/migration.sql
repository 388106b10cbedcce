-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "filled_notional" DECIMAL(36,12) NOT NULL DEFAULT 0;

-- Kept by this trigger, per statement (one UPDATE per order however many fills a statement
-- inserts), in the transaction that records the fills. Fills are never updated or deleted.
CREATE FUNCTION orders_add_filled_notional() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE orders o SET filled_notional = o.filled_notional + f.notional
    FROM (SELECT order_id, sum(price * quantity) AS notional FROM new_fills GROUP BY order_id) f
   WHERE o.id = f.order_id;
  RETURN NULL;
END $$;

CREATE TRIGGER fills_filled_notional
  AFTER INSERT ON fills REFERENCING NEW TABLE AS new_fills
  FOR EACH STATEMENT EXECUTE FUNCTION orders_add_filled_notional();

-- The fills recorded before this migration.
UPDATE orders o SET filled_notional = f.notional
  FROM (SELECT order_id, sum(price * quantity) AS notional FROM fills GROUP BY order_id) f
 WHERE o.id = f.order_id;
