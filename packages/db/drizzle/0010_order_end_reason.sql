ALTER TABLE "congress_package_orders" ADD COLUMN "end_reason" text;--> statement-breakpoint
ALTER TABLE "congress_ticket_orders" ADD COLUMN "end_reason" text;--> statement-breakpoint
-- orders a notification already ended: the reason of the first refund, chargeback or denial of their order number
UPDATE "congress_package_orders" o SET "end_reason" = r.reason FROM (
  SELECT DISTINCT ON (order_id) order_id,
    CASE event WHEN 'on_refund' THEN 'refund' WHEN 'on_chargeback' THEN 'chargeback' ELSE 'denial' END AS reason
  FROM "payment_notifications"
  WHERE event IN ('on_refund', 'on_chargeback', 'payment_denial') AND signature_valid AND order_id IS NOT NULL
  ORDER BY order_id, id
) r WHERE o."external_id" = r.order_id AND o."status" = 'canceled';--> statement-breakpoint
UPDATE "congress_ticket_orders" o SET "end_reason" = r.reason FROM (
  SELECT DISTINCT ON (order_id) order_id,
    CASE event WHEN 'on_refund' THEN 'refund' WHEN 'on_chargeback' THEN 'chargeback' ELSE 'denial' END AS reason
  FROM "payment_notifications"
  WHERE event IN ('on_refund', 'on_chargeback', 'payment_denial') AND signature_valid AND order_id IS NOT NULL
  ORDER BY order_id, id
) r WHERE o."external_id" = r.order_id AND o."status" = 'canceled';
