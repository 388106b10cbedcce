-- CreateTable
CREATE TABLE "working_order_totals" (
    "subaccount_id" TEXT NOT NULL,
    "market_id" TEXT NOT NULL,
    "side" "OrderSide" NOT NULL,
    "action" "OrderAction" NOT NULL,
    "orders" INTEGER NOT NULL,
    "remaining" DECIMAL(24,6) NOT NULL,
    "notional" DECIMAL(36,12) NOT NULL,

    CONSTRAINT "working_order_totals_pkey" PRIMARY KEY ("subaccount_id","market_id","side","action")
);

-- Kept by this trigger in the transaction that inserts, updates or deletes an order: the order's
-- old contribution (if it was working) is taken off, its new one (if it is working) added. The
-- statuses are core/domain/orderLifecycle.ts WORKING_STATUSES; test/storage/workingOrderTotals.test.ts
-- compares the totals with the orders they sum.
CREATE FUNCTION working_order_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_working boolean := TG_OP <> 'INSERT' AND OLD.status IN ('pending', 'open', 'partially_filled', 'unknown');
  is_working boolean := TG_OP <> 'DELETE' AND NEW.status IN ('pending', 'open', 'partially_filled', 'unknown');
BEGIN
  IF was_working AND is_working AND OLD.quantity = NEW.quantity AND OLD.filled_quantity = NEW.filled_quantity
     AND OLD.price IS NOT DISTINCT FROM NEW.price THEN
    RETURN NULL; -- still working, same contribution (e.g. pending -> open)
  END IF;
  IF was_working THEN
    UPDATE working_order_totals
       SET orders = orders - 1,
           remaining = remaining - (OLD.quantity - OLD.filled_quantity),
           notional = notional - (OLD.quantity - OLD.filled_quantity) * coalesce(OLD.price, 1)
     WHERE subaccount_id = OLD.subaccount_id AND market_id = OLD.market_id AND side = OLD.side AND action = OLD.action;
  END IF;
  IF is_working THEN
    INSERT INTO working_order_totals AS t (subaccount_id, market_id, side, action, orders, remaining, notional)
    VALUES (NEW.subaccount_id, NEW.market_id, NEW.side, NEW.action, 1,
            NEW.quantity - NEW.filled_quantity, (NEW.quantity - NEW.filled_quantity) * coalesce(NEW.price, 1))
    ON CONFLICT (subaccount_id, market_id, side, action) DO UPDATE
       SET orders = t.orders + 1, remaining = t.remaining + EXCLUDED.remaining, notional = t.notional + EXCLUDED.notional;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER orders_working_order_totals
  AFTER INSERT OR DELETE OR UPDATE OF status, quantity, filled_quantity, price, subaccount_id, market_id, side, action ON orders
  FOR EACH ROW EXECUTE FUNCTION working_order_totals_apply();

-- The orders working when this migration runs.
INSERT INTO working_order_totals (subaccount_id, market_id, side, action, orders, remaining, notional)
SELECT subaccount_id, market_id, side, action, count(*)::int, sum(quantity - filled_quantity),
       sum((quantity - filled_quantity) * coalesce(price, 1))
  FROM orders WHERE status IN ('pending', 'open', 'partially_filled', 'unknown')
 GROUP BY subaccount_id, market_id, side, action;
