"""Write `data/tool_catalog.json`: a realistic tool catalogue and a labelled query set.

Every tool below was written by hand: an English snake_case name, a one-sentence description
as a developer would write it, and its parameters in a compact notation that this script
expands into JSON Schema:

    "order_id: string: The order number, e.g. SO-10023"      required string
    "reason?: string: Why the customer cancels"               optional (the ? after the name)
    types: string, integer, number, boolean, date, datetime, string[], enum(a|b|c)

The queries are what a user might type, each with the one tool that should answer it and the
search terms a model would plausibly send to a keyword search (written before looking at any
scores). Run `python scripts/build_tool_catalog.py` after editing; the output is deterministic.

Leaves out: return schemas and examples (the catalogue measures search, not execution).
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "data" / "tool_catalog.json"

DOMAINS: dict[str, list[tuple[str, str, list[str]]]] = {
    "orders": [
        (
            "create_order",
            "Create a new sales order for a customer from product SKUs and quantities.",
            [
                "customer_id: string: Customer id, e.g. C-1042",
                "items: string[]: Line items as SKU:quantity, e.g. SKU-3301:2",
                "coupon_code?: string: Discount code to apply",
            ],
        ),
        (
            "get_order",
            "Look up one order by its order number: status, items, totals and shipping address.",
            ["order_id: string: The order number, e.g. SO-10023"],
        ),
        (
            "search_orders",
            "Find orders by customer, status or date range.",
            [
                "customer_id?: string: Customer id",
                "status?: enum(pending|paid|shipped|delivered|cancelled): Order status",
                "from_date?: date: First order date",
                "to_date?: date: Last order date",
            ],
        ),
        (
            "cancel_order",
            "Cancel an order that has not shipped yet and release its reserved stock.",
            ["order_id: string: The order number", "reason?: string: Why the order is cancelled"],
        ),
        (
            "update_order_address",
            "Change the shipping address of an order before it ships.",
            ["order_id: string: The order number", "address: string: The new address, one line"],
        ),
        (
            "add_order_note",
            "Attach an internal note to an order; customers never see it.",
            ["order_id: string: The order number", "note: string: The note text"],
        ),
        (
            "split_order",
            "Split one order into two shipments, e.g. to send the in-stock items first.",
            ["order_id: string: The order number", "skus: string[]: SKUs that go into the second shipment"],
        ),
        (
            "merge_orders",
            "Combine several open orders of the same customer into one shipment.",
            ["order_ids: string[]: The order numbers to merge"],
        ),
        (
            "list_order_items",
            "List the line items of an order with quantities and unit prices.",
            ["order_id: string: The order number"],
        ),
        (
            "update_order_item_quantity",
            "Change the quantity of one line item in an open order.",
            [
                "order_id: string: The order number",
                "sku: string: The product SKU",
                "quantity: integer: The new quantity",
            ],
        ),
        (
            "apply_order_discount",
            "Apply a manual discount to an open order, as an amount or a percentage.",
            [
                "order_id: string: The order number",
                "amount?: number: Discount amount in the order currency",
                "percent?: number: Discount in percent",
            ],
        ),
        (
            "get_order_history",
            "Show the status changes of an order with timestamps and who made each one.",
            ["order_id: string: The order number"],
        ),
        (
            "hold_order",
            "Put an order on hold so the warehouse does not pick it, e.g. on suspected fraud.",
            ["order_id: string: The order number", "reason: string: Why the order is held"],
        ),
        ("release_order_hold", "Release a held order so fulfilment continues.", ["order_id: string: The order number"]),
        (
            "reorder_previous_order",
            "Create a new order with the same items as an earlier order.",
            ["order_id: string: The earlier order number"],
        ),
        (
            "estimate_delivery_date",
            "Estimate when an order will arrive from its warehouse, carrier service and destination.",
            ["order_id: string: The order number"],
        ),
    ],
    "catalogue": [
        (
            "search_products",
            "Search the product catalogue by keywords, category and price range.",
            [
                "query: string: Words to search for",
                "category?: string: Category name",
                "min_price?: number: Lowest price",
                "max_price?: number: Highest price",
            ],
        ),
        (
            "get_product",
            "Get one product's details: title, description, price, variants and images.",
            ["product_id: string: Product id or SKU"],
        ),
        (
            "create_product",
            "Add a new product to the catalogue with title, price and category.",
            ["title: string: Product title", "price: number: List price", "category: string: Category name"],
        ),
        (
            "update_product_price",
            "Change a product's list price, optionally from a future start date.",
            [
                "product_id: string: Product id or SKU",
                "price: number: New price",
                "start_date?: date: When the price applies",
            ],
        ),
        (
            "archive_product",
            "Hide a discontinued product from the storefront without deleting its history.",
            ["product_id: string: Product id or SKU"],
        ),
        (
            "list_product_reviews",
            "List customer reviews of a product, newest first, with star ratings.",
            ["product_id: string: Product id or SKU", "min_stars?: integer: Only reviews with at least this rating"],
        ),
        (
            "reply_to_review",
            "Post the shop's public reply under a customer review.",
            ["review_id: string: Review id", "text: string: The reply"],
        ),
        (
            "get_stock_level",
            "Get the on-hand, reserved and available quantity of a SKU per warehouse.",
            ["sku: string: Product SKU", "warehouse_id?: string: Only this warehouse"],
        ),
        (
            "adjust_inventory",
            "Record a manual stock adjustment for a SKU (damage, shrinkage, recount) with a reason.",
            [
                "sku: string: Product SKU",
                "warehouse_id: string: Warehouse id",
                "delta: integer: Units to add (negative to remove)",
                "reason: enum(damage|shrinkage|recount|other): Why the stock changes",
            ],
        ),
        (
            "transfer_stock",
            "Move stock of a SKU from one warehouse to another.",
            [
                "sku: string: Product SKU",
                "from_warehouse: string: Source warehouse id",
                "to_warehouse: string: Target warehouse id",
                "quantity: integer: Units to move",
            ],
        ),
        (
            "list_low_stock_items",
            "List SKUs whose available stock is below their reorder point.",
            ["warehouse_id?: string: Only this warehouse"],
        ),
        (
            "create_purchase_order",
            "Order stock from a supplier: SKUs, quantities and the expected arrival date.",
            [
                "supplier_id: string: Supplier id",
                "items: string[]: Lines as SKU:quantity",
                "expected_date?: date: Expected arrival",
            ],
        ),
        (
            "receive_purchase_order",
            "Book the goods of a purchase order into stock when they arrive at the warehouse.",
            ["purchase_order_id: string: Purchase order number"],
        ),
        (
            "list_suppliers",
            "List suppliers with contact details and the SKUs they deliver.",
            ["sku?: string: Only suppliers of this SKU"],
        ),
        (
            "get_product_recommendations",
            "Suggest related or frequently-bought-together products for a product.",
            ["product_id: string: Product id or SKU", "limit?: integer: How many suggestions"],
        ),
        (
            "compare_products",
            "Compare up to four products side by side on price, ratings and specifications.",
            ["product_ids: string[]: Two to four product ids"],
        ),
    ],
    "logistics": [
        (
            "create_shipment",
            "Create a shipment for an order with a carrier and service level; returns a tracking number.",
            [
                "order_id: string: The order number",
                "carrier: enum(dhl|ups|fedex|dpd|gls): Carrier",
                "service?: enum(standard|express|same_day): Service level",
            ],
        ),
        (
            "track_shipment",
            "Get the current status and scan history of a shipment by its tracking number.",
            ["tracking_number: string: The carrier's tracking number"],
        ),
        (
            "get_shipping_rates",
            "Quote prices and delivery times from several carriers for a parcel's weight, size and destination.",
            [
                "weight_kg: number: Parcel weight in kg",
                "dimensions_cm?: string: Length x width x height, e.g. 40x30x20",
                "destination: string: Destination postcode and country",
            ],
        ),
        (
            "print_shipping_label",
            "Generate a printable shipping label (PDF) for a shipment.",
            ["shipment_id: string: Shipment id", "format?: enum(pdf|zpl): Label format"],
        ),
        (
            "void_shipping_label",
            "Void an unused shipping label so the carrier does not charge for it.",
            ["shipment_id: string: Shipment id"],
        ),
        (
            "schedule_pickup",
            "Book a carrier pickup at a warehouse for a date and time window.",
            [
                "warehouse_id: string: Warehouse id",
                "carrier: string: Carrier",
                "date: date: Pickup date",
                "window?: string: Time window, e.g. 14:00-17:00",
            ],
        ),
        (
            "create_return_label",
            "Create a prepaid return label so a customer can send items back.",
            ["order_id: string: The order number", "skus?: string[]: Items being returned"],
        ),
        (
            "validate_address",
            "Check and normalise a postal address; flags addresses that cannot be delivered to.",
            ["address: string: The address, one line", "country: string: ISO country code"],
        ),
        (
            "report_lost_parcel",
            "Open a claim with the carrier for a parcel lost or damaged in transit.",
            [
                "tracking_number: string: The carrier's tracking number",
                "kind: enum(lost|damaged): What happened",
                "value?: number: Declared value of the contents",
            ],
        ),
        ("list_warehouses", "List warehouses with their addresses, cut-off times and capacity.", []),
        (
            "get_delivery_exceptions",
            "List shipments with delivery problems: failed delivery, address issues, customs holds.",
            ["since?: date: Only exceptions since this date"],
        ),
        (
            "reroute_shipment",
            "Ask the carrier to deliver an in-transit parcel to a different address or pickup point.",
            [
                "tracking_number: string: The carrier's tracking number",
                "new_address: string: Address or pickup point id",
            ],
        ),
        (
            "calculate_customs_duties",
            "Estimate import duties and taxes for an international shipment by HS code and destination country.",
            [
                "hs_code: string: Harmonised System code",
                "value: number: Goods value",
                "currency: string: ISO currency",
                "country: string: Destination country",
            ],
        ),
        (
            "generate_customs_declaration",
            "Create the customs form (CN22, CN23 or commercial invoice) for an international shipment.",
            ["shipment_id: string: Shipment id"],
        ),
        (
            "find_pickup_points",
            "Find parcel lockers and pickup points near an address.",
            ["address: string: Address or postcode", "carrier?: string: Only this carrier's points"],
        ),
        (
            "book_freight",
            "Book a pallet or container freight shipment with a forwarder.",
            [
                "origin: string: Pickup address",
                "destination: string: Delivery address",
                "pallets: integer: Number of pallets",
                "ready_date: date: When the goods are ready",
            ],
        ),
    ],
    "payments": [
        (
            "charge_card",
            "Charge a customer's saved card for an amount in a currency.",
            [
                "customer_id: string: Customer id",
                "amount: number: Amount",
                "currency: string: ISO currency, e.g. EUR",
                "description?: string: Text on the statement",
            ],
        ),
        (
            "authorize_payment",
            "Place a hold on a card for an amount without capturing it yet.",
            ["customer_id: string: Customer id", "amount: number: Amount", "currency: string: ISO currency"],
        ),
        (
            "capture_payment",
            "Capture a previously authorised payment, fully or partially.",
            ["payment_id: string: Payment id", "amount?: number: Amount to capture (default: all)"],
        ),
        (
            "void_authorization",
            "Release an authorisation hold that will not be captured.",
            ["payment_id: string: Payment id"],
        ),
        (
            "refund_payment",
            "Refund a captured payment, fully or partially, to the original payment method.",
            [
                "payment_id: string: Payment id, e.g. pay_8812",
                "amount?: number: Amount to refund (default: all)",
                "reason?: string: Why",
            ],
        ),
        ("get_payment", "Get the status, amount, method and fees of one payment.", ["payment_id: string: Payment id"]),
        (
            "list_payments",
            "List payments of a customer or order, optionally filtered by status and date.",
            [
                "customer_id?: string: Customer id",
                "order_id?: string: Order number",
                "status?: enum(succeeded|failed|refunded|pending): Payment status",
            ],
        ),
        (
            "create_payment_link",
            "Create a hosted checkout link the customer can pay through.",
            ["amount: number: Amount", "currency: string: ISO currency", "description: string: What is paid for"],
        ),
        (
            "list_disputes",
            "List chargebacks and payment disputes with their response deadlines.",
            ["status?: enum(open|won|lost): Dispute status"],
        ),
        (
            "submit_dispute_evidence",
            "Send evidence (receipts, tracking, messages) to contest a chargeback.",
            ["dispute_id: string: Dispute id", "evidence: string[]: File ids or texts"],
        ),
        (
            "save_payment_method",
            "Store a tokenised card or bank account for a customer's future payments.",
            ["customer_id: string: Customer id", "token: string: Token from the payment form"],
        ),
        (
            "remove_payment_method",
            "Delete a saved card or bank account from a customer's wallet.",
            ["customer_id: string: Customer id", "payment_method_id: string: Saved method id"],
        ),
        ("get_payout_schedule", "Show upcoming payouts to the merchant's bank account with amounts and dates.", []),
        (
            "check_fraud_score",
            "Get the fraud risk score of a payment and the signals behind it.",
            ["payment_id: string: Payment id"],
        ),
        (
            "convert_currency",
            "Convert an amount between currencies at today's exchange rate.",
            [
                "amount: number: Amount",
                "from_currency: string: ISO currency, e.g. USD",
                "to_currency: string: ISO currency, e.g. EUR",
            ],
        ),
        (
            "retry_failed_payment",
            "Retry a failed card payment, e.g. after the customer updated their card.",
            ["payment_id: string: Payment id"],
        ),
    ],
    "billing": [
        (
            "create_invoice",
            "Create an invoice for a customer with line items, tax and a due date.",
            [
                "customer_id: string: Customer id",
                "lines: string[]: Lines as description:amount",
                "due_date: date: Due date",
            ],
        ),
        (
            "send_invoice",
            "Email an invoice to the customer with a payment link.",
            ["invoice_id: string: Invoice number, e.g. INV-2041"],
        ),
        (
            "get_invoice",
            "Get one invoice: lines, totals, tax, status and the payments applied to it.",
            ["invoice_id: string: Invoice number, e.g. INV-2041"],
        ),
        (
            "list_overdue_invoices",
            "List unpaid invoices past their due date, oldest first.",
            ["customer_id?: string: Only this customer"],
        ),
        ("void_invoice", "Void an issued invoice that was created by mistake.", ["invoice_id: string: Invoice number"]),
        (
            "issue_credit_note",
            "Issue a credit note against an invoice, e.g. for returned goods.",
            ["invoice_id: string: Invoice number", "amount: number: Amount credited", "reason: string: Why"],
        ),
        ("download_invoice_pdf", "Get a PDF copy of an invoice.", ["invoice_id: string: Invoice number"]),
        (
            "create_subscription",
            "Start a subscription for a customer on a plan, with an optional free trial.",
            [
                "customer_id: string: Customer id",
                "plan_id: string: Plan id",
                "trial_days?: integer: Length of the trial",
            ],
        ),
        (
            "cancel_subscription",
            "Cancel a subscription now or at the end of the billing period.",
            ["subscription_id: string: Subscription id", "at_period_end?: boolean: Cancel when the period ends"],
        ),
        (
            "change_subscription_plan",
            "Move a subscription to another plan (upgrade or downgrade), with proration.",
            ["subscription_id: string: Subscription id", "plan_id: string: The new plan"],
        ),
        (
            "pause_subscription",
            "Pause billing of a subscription until a given date.",
            ["subscription_id: string: Subscription id", "resume_on: date: When billing resumes"],
        ),
        ("list_plans", "List the available subscription plans with prices and billing intervals.", []),
        (
            "record_usage",
            "Report metered usage (e.g. API calls) for a usage-based subscription.",
            ["subscription_id: string: Subscription id", "quantity: integer: Units used", "timestamp?: datetime: When"],
        ),
        (
            "send_payment_reminder",
            "Send a dunning reminder email for an overdue invoice.",
            ["invoice_id: string: Invoice number"],
        ),
        (
            "apply_account_credit",
            "Add a credit balance to a customer's billing account.",
            ["customer_id: string: Customer id", "amount: number: Credit amount", "reason?: string: Why"],
        ),
        (
            "get_tax_rate",
            "Look up the sales tax or VAT rate for an address and a product tax category.",
            ["address: string: Address, one line", "tax_category?: string: Product tax category"],
        ),
    ],
    "crm": [
        (
            "create_contact",
            "Add a person to the CRM with name, email, phone and company.",
            [
                "name: string: Full name",
                "email?: string: Email address",
                "phone?: string: Phone number",
                "company?: string: Company name",
            ],
        ),
        (
            "find_contact",
            "Search CRM contacts by name, email, phone or company.",
            ["query: string: Name, email, phone or company"],
        ),
        (
            "update_contact",
            "Change fields of a CRM contact such as email, phone, job title or owner.",
            ["contact_id: string: Contact id", "fields: string[]: Changes as field=value"],
        ),
        (
            "merge_contacts",
            "Merge duplicate CRM contacts into one record, keeping all their activity.",
            ["contact_ids: string[]: The duplicates; the first one is kept"],
        ),
        (
            "create_company",
            "Add an organisation (account) to the CRM.",
            ["name: string: Company name", "domain?: string: Website domain", "industry?: string: Industry"],
        ),
        (
            "create_lead",
            "Record a new sales lead with its source and what they are interested in.",
            [
                "name: string: Person or company",
                "source: string: Where the lead came from",
                "interest?: string: Product interest",
            ],
        ),
        (
            "qualify_lead",
            "Mark a lead as qualified and convert it into a contact and a deal.",
            ["lead_id: string: Lead id"],
        ),
        (
            "create_deal",
            "Open a sales opportunity with an amount, a stage and an expected close date.",
            [
                "name: string: Deal name",
                "company_id: string: Company id",
                "amount: number: Expected value",
                "close_date?: date: Expected close date",
            ],
        ),
        (
            "update_deal_stage",
            "Move a deal to another pipeline stage: qualification, proposal, negotiation, won or lost.",
            ["deal_id: string: Deal id", "stage: enum(qualification|proposal|negotiation|won|lost): New stage"],
        ),
        (
            "list_deals",
            "List deals in the sales pipeline, filtered by owner, stage or close date.",
            ["owner?: string: Sales rep", "stage?: string: Pipeline stage"],
        ),
        (
            "log_activity",
            "Log a call, meeting or email with a contact on the CRM timeline.",
            [
                "contact_id: string: Contact id",
                "kind: enum(call|meeting|email): Activity",
                "summary: string: What happened",
            ],
        ),
        (
            "assign_owner",
            "Assign a contact, company or deal to a sales representative.",
            ["record_id: string: Contact, company or deal id", "owner: string: Sales rep"],
        ),
        (
            "get_customer_profile",
            "Get a 360-degree view of a customer: contact data, orders, tickets and lifetime value.",
            ["customer_id: string: Customer id or email"],
        ),
        (
            "add_contact_tag",
            "Tag contacts for segmentation, e.g. 'vip' or 'newsletter'.",
            ["contact_ids: string[]: Contact ids", "tag: string: The tag"],
        ),
        (
            "forecast_revenue",
            "Forecast the pipeline's revenue for a quarter, weighted by stage probability.",
            ["quarter: string: e.g. 2026-Q3"],
        ),
        (
            "schedule_follow_up",
            "Create a follow-up reminder for a sales rep on a contact or deal.",
            ["record_id: string: Contact or deal id", "due: datetime: When", "note?: string: What to do"],
        ),
    ],
    "support": [
        (
            "create_ticket",
            "Open a support ticket for a customer with a subject, a description and a priority.",
            [
                "customer_id: string: Customer id or email",
                "subject: string: Subject",
                "description: string: The problem",
                "priority?: enum(low|normal|high|urgent): Priority",
            ],
        ),
        ("get_ticket", "Get a support ticket with its conversation and status.", ["ticket_id: string: Ticket number"]),
        (
            "reply_to_ticket",
            "Send a reply to the customer on a support ticket.",
            ["ticket_id: string: Ticket number", "text: string: The reply"],
        ),
        (
            "assign_ticket",
            "Assign a support ticket to an agent or a team.",
            ["ticket_id: string: Ticket number", "assignee: string: Agent or team"],
        ),
        (
            "close_ticket",
            "Close a resolved support ticket with a resolution note.",
            ["ticket_id: string: Ticket number", "resolution: string: How it was solved"],
        ),
        (
            "escalate_ticket",
            "Escalate a ticket to second-level support or a supervisor and raise its priority.",
            ["ticket_id: string: Ticket number", "reason: string: Why it needs escalation"],
        ),
        (
            "list_open_tickets",
            "List open support tickets, filtered by queue, priority or agent.",
            ["queue?: string: Queue", "priority?: string: Priority", "agent?: string: Agent"],
        ),
        (
            "search_knowledge_base",
            "Search help-centre articles for an answer to a customer question.",
            ["query: string: The question or keywords"],
        ),
        (
            "create_kb_article",
            "Publish a new help-centre article.",
            ["title: string: Title", "body: string: Article text (Markdown)", "section?: string: Help-centre section"],
        ),
        (
            "get_csat_scores",
            "Get customer satisfaction (CSAT) survey results for a period, per agent or team.",
            ["from_date: date: Start", "to_date: date: End", "group_by?: enum(agent|team): Grouping"],
        ),
        (
            "merge_tickets",
            "Merge duplicate tickets from the same customer about the same issue.",
            ["ticket_ids: string[]: The duplicates; the first one is kept"],
        ),
        ("get_sla_status", "Show which tickets are about to breach their response or resolution SLA.", []),
        (
            "transfer_chat_to_agent",
            "Hand a live chat with a customer over from the bot to a human agent.",
            ["chat_id: string: Chat session id", "note?: string: Summary for the agent"],
        ),
        (
            "create_canned_response",
            "Save a reusable reply template (macro) for support agents.",
            ["title: string: Name of the macro", "text: string: The reply text"],
        ),
    ],
    "calendar": [
        (
            "create_event",
            "Add an event to a calendar with title, start, end, location and attendees.",
            [
                "title: string: Title",
                "start: datetime: Start",
                "end: datetime: End",
                "location?: string: Place",
                "attendees?: string[]: Email addresses",
            ],
        ),
        (
            "list_events",
            "List calendar events in a time range.",
            ["start: datetime: From", "end: datetime: To", "calendar_id?: string: Calendar (default: mine)"],
        ),
        (
            "update_event",
            "Change the time, title, location or attendees of a calendar event.",
            ["event_id: string: Event id", "changes: string[]: Changes as field=value"],
        ),
        ("delete_event", "Remove an event from a calendar and notify its attendees.", ["event_id: string: Event id"]),
        (
            "find_free_slots",
            "Find times when all given people are free for a meeting of a given length.",
            [
                "people: string[]: Email addresses",
                "duration_minutes: integer: Meeting length",
                "between: string: Date range, e.g. 2026-05-04/2026-05-08",
            ],
        ),
        (
            "schedule_meeting",
            "Pick a common free slot and send a meeting invitation with a video-call link.",
            ["title: string: Title", "people: string[]: Email addresses", "duration_minutes: integer: Meeting length"],
        ),
        (
            "respond_to_invitation",
            "Accept, decline or tentatively accept a meeting invitation.",
            [
                "event_id: string: Event id",
                "response: enum(accept|decline|tentative): Answer",
                "comment?: string: Note to the organiser",
            ],
        ),
        (
            "set_out_of_office",
            "Turn on an automatic out-of-office reply and block the calendar for a period.",
            ["start: date: First day away", "end: date: Last day away", "message: string: Auto-reply text"],
        ),
        (
            "book_meeting_room",
            "Reserve a meeting room for a time slot, by size and equipment.",
            [
                "start: datetime: Start",
                "end: datetime: End",
                "people: integer: Number of people",
                "equipment?: string[]: e.g. projector, video",
            ],
        ),
        (
            "list_meeting_rooms",
            "List the meeting rooms of an office with capacity and equipment.",
            ["office?: string: Office location"],
        ),
        (
            "create_recurring_event",
            "Create a repeating event, e.g. a weekly team meeting.",
            [
                "title: string: Title",
                "start: datetime: First occurrence",
                "rule: string: Repeat rule, e.g. weekly on Monday",
            ],
        ),
        (
            "convert_time_zone",
            "Convert a date and time from one time zone to another.",
            [
                "time: datetime: Date and time",
                "from_zone: string: IANA zone, e.g. Europe/Berlin",
                "to_zone: string: IANA zone",
            ],
        ),
        (
            "share_calendar",
            "Share a calendar with a colleague with view or edit rights.",
            ["calendar_id: string: Calendar", "with_email: string: Colleague", "access: enum(view|edit): Rights"],
        ),
        (
            "set_reminder",
            "Set a reminder notification for a given time with a message.",
            ["at: datetime: When", "message: string: What to remind of"],
        ),
    ],
    "messaging": [
        (
            "send_email",
            "Send an email to one or more recipients with subject, body and attachments.",
            [
                "to: string[]: Recipients",
                "subject: string: Subject",
                "body: string: Text",
                "attachments?: string[]: File ids",
            ],
        ),
        (
            "search_emails",
            "Search the mailbox by sender, subject, words or date.",
            ["query: string: Words, sender or subject", "since?: date: Only newer mail"],
        ),
        ("read_email", "Get the full content and attachments of one email.", ["email_id: string: Email id"]),
        (
            "reply_to_email",
            "Reply to an email thread, optionally to all recipients.",
            ["email_id: string: Email id", "body: string: Reply text", "reply_all?: boolean: Reply to everyone"],
        ),
        (
            "forward_email",
            "Forward an email to other recipients with a note.",
            ["email_id: string: Email id", "to: string[]: Recipients", "note?: string: Text above the forwarded mail"],
        ),
        (
            "create_email_draft",
            "Save an email as a draft without sending it.",
            ["to: string[]: Recipients", "subject: string: Subject", "body: string: Text"],
        ),
        (
            "move_email_to_folder",
            "Move emails to a folder or give them a label.",
            ["email_ids: string[]: Email ids", "folder: string: Folder or label"],
        ),
        (
            "create_email_filter",
            "Create a rule that sorts incoming mail automatically.",
            ["match: string: Sender or words to match", "action: string: e.g. move to folder X, mark as read"],
        ),
        (
            "schedule_email",
            "Send an email later, at a given date and time.",
            ["to: string[]: Recipients", "subject: string: Subject", "body: string: Text", "send_at: datetime: When"],
        ),
        (
            "send_sms",
            "Send a text message (SMS) to a phone number.",
            ["phone: string: Phone number in international format", "text: string: Message, up to 160 characters"],
        ),
        (
            "send_slack_message",
            "Post a message to a Slack channel or a user.",
            ["channel: string: Channel (#name) or user (@name)", "text: string: Message"],
        ),
        (
            "create_slack_channel",
            "Create a Slack channel and invite members.",
            ["name: string: Channel name", "members?: string[]: Users to invite", "private?: boolean: Private channel"],
        ),
        (
            "send_push_notification",
            "Send a push notification to a customer's mobile app.",
            ["customer_id: string: Customer id", "title: string: Title", "body: string: Text"],
        ),
        (
            "send_whatsapp_message",
            "Send a WhatsApp message to a customer using an approved template.",
            ["phone: string: Phone number", "template: string: Template name", "variables?: string[]: Template values"],
        ),
    ],
    "files": [
        (
            "upload_file",
            "Upload a file to cloud storage into a folder.",
            ["path: string: Local file path", "folder: string: Target folder"],
        ),
        (
            "download_file",
            "Download a file from cloud storage by its path or id.",
            ["file_id: string: File id or path"],
        ),
        ("list_files", "List the files and subfolders of a folder.", ["folder: string: Folder path"]),
        (
            "search_files",
            "Find files by name, type, owner or text inside documents.",
            ["query: string: Words to search", "type?: string: e.g. pdf, xlsx", "owner?: string: Owner"],
        ),
        (
            "share_file",
            "Share a file or folder with people (view or edit access) or create a public link.",
            [
                "file_id: string: File or folder id",
                "with_emails?: string[]: People",
                "access: enum(view|edit|public_link): Access",
            ],
        ),
        (
            "move_file",
            "Move or rename a file or folder.",
            ["file_id: string: File or folder id", "new_path: string: New path"],
        ),
        ("delete_file", "Move a file or folder to the trash.", ["file_id: string: File or folder id"]),
        (
            "restore_file_version",
            "Restore an earlier version of a file.",
            ["file_id: string: File id", "version: string: Version id or date"],
        ),
        ("create_folder", "Create a new folder.", ["path: string: Folder path"]),
        (
            "convert_document",
            "Convert a document to another format, e.g. DOCX to PDF.",
            ["file_id: string: File id", "to_format: enum(pdf|docx|odt|txt|html): Target format"],
        ),
        (
            "extract_text_from_pdf",
            "Extract the text of a PDF, with OCR for scanned pages.",
            ["file_id: string: File id"],
        ),
        (
            "summarize_document",
            "Summarise a long document into key points.",
            ["file_id: string: File id", "max_points?: integer: How many points"],
        ),
        (
            "request_e_signature",
            "Send a document for electronic signature and track who has signed.",
            ["file_id: string: File id", "signers: string[]: Email addresses of the signers"],
        ),
        (
            "compress_files",
            "Put files into a ZIP archive.",
            ["file_ids: string[]: Files", "name: string: Archive name"],
        ),
        ("get_file_metadata", "Get the size, owner, dates and permissions of a file.", ["file_id: string: File id"]),
        (
            "read_spreadsheet",
            "Read rows from a spreadsheet (XLSX or CSV), by sheet and range.",
            ["file_id: string: File id", "sheet?: string: Sheet name", "range?: string: e.g. A1:F200"],
        ),
    ],
    "hr": [
        (
            "get_employee",
            "Look up an employee's profile: job title, department, manager and contact details.",
            ["employee_id: string: Employee id or email"],
        ),
        (
            "search_employees",
            "Search the staff directory by name, department, role or location.",
            ["query: string: Name, department, role or location"],
        ),
        (
            "create_employee",
            "Onboard a new hire: create the employee record with start date, role and salary.",
            [
                "name: string: Full name",
                "role: string: Job title",
                "start_date: date: First working day",
                "salary: number: Yearly gross salary",
            ],
        ),
        (
            "terminate_employee",
            "Record an employee's leaving date and start offboarding.",
            ["employee_id: string: Employee id", "last_day: date: Last working day"],
        ),
        (
            "request_time_off",
            "Submit a vacation or sick-leave request for dates.",
            ["kind: enum(vacation|sick|unpaid): Leave type", "start: date: First day", "end: date: Last day"],
        ),
        (
            "approve_time_off",
            "Approve or reject a pending leave request.",
            ["request_id: string: Leave request id", "decision: enum(approve|reject): Decision"],
        ),
        (
            "get_leave_balance",
            "Show how many vacation and sick days an employee has left this year.",
            ["employee_id?: string: Employee (default: me)"],
        ),
        (
            "list_team_absences",
            "Show who in a team is on leave during a period.",
            ["team: string: Team name", "start: date: From", "end: date: To"],
        ),
        (
            "get_payslip",
            "Get an employee's payslip for a month.",
            ["employee_id: string: Employee id", "month: string: e.g. 2026-04"],
        ),
        ("run_payroll", "Calculate and submit payroll for a pay period.", ["period: string: e.g. 2026-04"]),
        (
            "update_salary",
            "Change an employee's salary from an effective date.",
            ["employee_id: string: Employee id", "salary: number: New yearly gross salary", "effective: date: From"],
        ),
        (
            "post_job_opening",
            "Publish a job vacancy on the careers page and job boards.",
            ["title: string: Job title", "description: string: The job ad", "location: string: Location or remote"],
        ),
        (
            "list_candidates",
            "List the applicants for a job opening with their hiring stage.",
            ["job_id: string: Job opening id", "stage?: string: Only this stage"],
        ),
        (
            "schedule_interview",
            "Schedule an interview between a candidate and interviewers.",
            ["candidate_id: string: Candidate id", "interviewers: string[]: Email addresses", "start: datetime: Start"],
        ),
        (
            "record_timesheet",
            "Log the hours worked on projects for a day or a week.",
            ["date: date: Day (or first day of the week)", "entries: string[]: Lines as project:hours"],
        ),
        ("get_org_chart", "Show the reporting line above and below an employee.", ["employee_id: string: Employee id"]),
        (
            "start_performance_review",
            "Start a performance review cycle for an employee or a team.",
            ["subject: string: Employee id or team", "due: date: Deadline"],
        ),
    ],
    "devops": [
        (
            "deploy_service",
            "Deploy a version of a service to an environment such as staging or production.",
            [
                "service: string: Service name",
                "version: string: Version or image tag",
                "environment: enum(staging|production): Environment",
            ],
        ),
        (
            "rollback_deployment",
            "Roll a service back to its previous version.",
            ["service: string: Service name", "environment: enum(staging|production): Environment"],
        ),
        (
            "get_deployment_status",
            "Show the progress and health of a running deployment.",
            ["deployment_id: string: Deployment id"],
        ),
        (
            "list_deployments",
            "List recent deployments of a service with version, author and result.",
            ["service: string: Service name", "limit?: integer: How many"],
        ),
        (
            "scale_service",
            "Change the number of replicas (instances) of a service.",
            ["service: string: Service name", "replicas: integer: Number of instances"],
        ),
        (
            "restart_service",
            "Restart the instances of a service one by one (rolling restart).",
            ["service: string: Service name", "environment: enum(staging|production): Environment"],
        ),
        (
            "get_pod_logs",
            "Fetch recent log lines of a Kubernetes pod or container.",
            ["pod: string: Pod name", "namespace?: string: Namespace", "lines?: integer: How many lines"],
        ),
        (
            "list_pods",
            "List the Kubernetes pods of a namespace with status and restart counts.",
            ["namespace: string: Namespace"],
        ),
        (
            "run_ci_pipeline",
            "Trigger a CI pipeline for a branch or commit.",
            ["repository: string: Repository", "ref: string: Branch or commit"],
        ),
        (
            "get_pipeline_status",
            "Get the status of a CI pipeline run and its failed jobs.",
            ["pipeline_id: string: Pipeline run id"],
        ),
        (
            "create_pull_request",
            "Open a pull request from a branch, with a title and a description.",
            [
                "repository: string: Repository",
                "source_branch: string: Branch with the changes",
                "target_branch: string: Branch to merge into",
                "title: string: Title",
                "description?: string: Description",
            ],
        ),
        (
            "merge_pull_request",
            "Merge an approved pull request.",
            ["repository: string: Repository", "number: integer: Pull request number"],
        ),
        (
            "list_open_pull_requests",
            "List the open pull requests of a repository with reviewers and checks.",
            ["repository: string: Repository"],
        ),
        (
            "rotate_secret",
            "Rotate a secret (API key, password) in the secrets manager and redeploy the services using it.",
            ["secret_name: string: Secret name"],
        ),
        (
            "set_environment_variable",
            "Set a configuration variable of a service in an environment.",
            [
                "service: string: Service name",
                "environment: string: Environment",
                "name: string: Variable name",
                "value: string: Value",
            ],
        ),
        (
            "create_dns_record",
            "Add or update a DNS record (A, CNAME, TXT) for a domain.",
            ["domain: string: Domain", "type: enum(A|AAAA|CNAME|TXT|MX): Record type", "value: string: Record value"],
        ),
        ("renew_tls_certificate", "Renew a domain's TLS certificate before it expires.", ["domain: string: Domain"]),
        (
            "provision_database",
            "Create a new managed database instance with a size and a version.",
            ["name: string: Instance name", "engine: enum(postgres|mysql): Engine", "size: string: Instance size"],
        ),
        (
            "create_backup",
            "Take a backup (snapshot) of a database or a volume.",
            ["resource: string: Database or volume name"],
        ),
        (
            "restore_backup",
            "Restore a database or volume from a backup.",
            ["backup_id: string: Backup id", "target?: string: Restore into this resource"],
        ),
        (
            "toggle_feature_flag",
            "Turn a feature flag on or off for an environment or a share of users.",
            ["flag: string: Flag name", "enabled: boolean: On or off", "percentage?: integer: Share of users, 0-100"],
        ),
    ],
    "monitoring": [
        (
            "get_service_metrics",
            "Get CPU, memory, latency or error-rate metrics of a service for a time range.",
            [
                "service: string: Service name",
                "metric: enum(cpu|memory|latency_p95|error_rate|requests): Metric",
                "last_minutes?: integer: Time range",
            ],
        ),
        (
            "query_logs",
            "Search application logs with a query over a time range.",
            [
                "query: string: Log query, e.g. service:payments level:error",
                "from: datetime: Start",
                "to?: datetime: End",
            ],
        ),
        (
            "list_alerts",
            "List firing monitoring alerts by severity and service.",
            ["severity?: enum(critical|warning|info): Severity", "service?: string: Service"],
        ),
        (
            "acknowledge_alert",
            "Acknowledge an alert so the on-call team knows someone is on it.",
            ["alert_id: string: Alert id"],
        ),
        (
            "create_incident",
            "Declare an incident with a severity, the affected services and a summary.",
            [
                "severity: enum(sev1|sev2|sev3): Severity",
                "summary: string: What is broken",
                "services?: string[]: Affected services",
            ],
        ),
        (
            "update_incident_status",
            "Post a status update on an incident: investigating, identified, monitoring or resolved.",
            [
                "incident_id: string: Incident id",
                "status: enum(investigating|identified|monitoring|resolved): Status",
                "message: string: Update text",
            ],
        ),
        ("get_on_call", "Show who is on call right now for a team or a service.", ["team: string: Team or service"]),
        (
            "page_on_call",
            "Page the on-call engineer of a team with a message.",
            ["team: string: Team", "message: string: What happened"],
        ),
        (
            "create_alert_rule",
            "Create a monitoring alert that fires when a metric crosses a threshold.",
            ["metric: string: Metric query", "threshold: number: Threshold", "notify: string: Channel or team"],
        ),
        (
            "silence_alert",
            "Mute an alert for a period, e.g. during maintenance.",
            ["alert_id: string: Alert id", "minutes: integer: How long"],
        ),
        (
            "get_uptime",
            "Get the uptime percentage and the outages of a service or website for a period.",
            ["target: string: Service or URL", "days?: integer: Period in days"],
        ),
        (
            "run_health_check",
            "Call a service's health endpoint and report whether it responds correctly.",
            ["url: string: Health endpoint URL"],
        ),
        (
            "write_postmortem",
            "Create a post-incident review document from an incident's timeline.",
            ["incident_id: string: Incident id"],
        ),
        (
            "update_status_page",
            "Publish a notice on the public status page.",
            [
                "title: string: Title",
                "message: string: Text",
                "status: enum(degraded|outage|maintenance|operational): Status",
            ],
        ),
        (
            "list_top_errors",
            "List the most frequent application errors (exceptions) with counts and when they were first seen.",
            ["service?: string: Service", "hours?: integer: Time range in hours"],
        ),
        (
            "get_trace",
            "Get a distributed trace by its id, with the time spent in each service.",
            ["trace_id: string: Trace id"],
        ),
    ],
    "analytics": [
        (
            "run_sql_query",
            "Run a read-only SQL query on the analytics warehouse and return the rows.",
            ["sql: string: The SELECT statement", "limit?: integer: Maximum rows"],
        ),
        (
            "get_sales_report",
            "Sales totals per day, week or month, by channel, region or product.",
            ["from_date: date: Start", "to_date: date: End", "group_by?: enum(channel|region|product): Breakdown"],
        ),
        (
            "get_top_products",
            "The best-selling products of a period, by units or by revenue.",
            ["from_date: date: Start", "to_date: date: End", "by?: enum(units|revenue): Ranking"],
        ),
        (
            "get_conversion_funnel",
            "Conversion rates through the checkout funnel: visit, cart, checkout, purchase.",
            ["from_date: date: Start", "to_date: date: End"],
        ),
        (
            "get_website_traffic",
            "Visits, unique visitors and traffic sources of the website for a period.",
            ["from_date: date: Start", "to_date: date: End"],
        ),
        ("get_churn_rate", "The share of customers or subscribers lost in a period.", ["period: string: e.g. 2026-Q1"]),
        ("export_report_csv", "Export a saved report as a CSV file.", ["report_id: string: Report id"]),
        (
            "create_dashboard",
            "Create a dashboard with charts from saved queries.",
            ["title: string: Title", "query_ids: string[]: Saved queries to chart"],
        ),
        (
            "schedule_report",
            "Email a saved report to recipients every day, week or month.",
            [
                "report_id: string: Report id",
                "recipients: string[]: Email addresses",
                "every: enum(day|week|month): Frequency",
            ],
        ),
        (
            "get_cohort_retention",
            "Retention of customer cohorts by month of first purchase.",
            ["from_month: string: First cohort, e.g. 2026-01"],
        ),
        (
            "forecast_demand",
            "Forecast the units sold per SKU for the coming weeks.",
            ["sku: string: Product SKU", "weeks?: integer: Horizon in weeks"],
        ),
        (
            "run_ab_test_analysis",
            "Compare the variants of an A/B test and report whether the difference is significant.",
            ["experiment_id: string: Experiment id"],
        ),
        ("list_datasets", "List the tables of the data warehouse with descriptions and owners.", []),
        (
            "get_average_order_value",
            "Average order value for a period, by sales channel.",
            ["from_date: date: Start", "to_date: date: End"],
        ),
    ],
    "travel": [
        (
            "search_flights",
            "Search flights between two airports on given dates, with cabin class and passengers.",
            [
                "origin: string: Airport code, e.g. FRA",
                "destination: string: Airport code, e.g. MAD",
                "date: date: Departure date",
                "return_date?: date: Return date",
                "passengers?: integer: Number of passengers",
                "cabin?: enum(economy|premium|business|first): Cabin class",
            ],
        ),
        (
            "book_flight",
            "Book a flight offer for passengers.",
            ["offer_id: string: Offer id from search_flights", "passengers: string[]: Full names as in the passport"],
        ),
        (
            "cancel_flight_booking",
            "Cancel a flight booking and request a refund where the fare allows it.",
            ["booking_reference: string: Booking reference (PNR)"],
        ),
        (
            "get_flight_status",
            "Get the departure and arrival status of a flight: delays, gate, cancellation.",
            ["flight_number: string: e.g. LH400", "date?: date: Date of the flight"],
        ),
        (
            "check_in_flight",
            "Check passengers in for a flight and get their boarding passes.",
            ["booking_reference: string: Booking reference (PNR)"],
        ),
        (
            "search_hotels",
            "Search hotels in a city for dates and guests, by price range and rating.",
            [
                "city: string: City",
                "check_in: date: Arrival",
                "check_out: date: Departure",
                "guests?: integer: Guests",
                "max_price?: number: Maximum price per night",
            ],
        ),
        (
            "book_hotel",
            "Book a hotel room offer.",
            ["offer_id: string: Offer id from search_hotels", "guest_name: string: Name on the booking"],
        ),
        ("cancel_hotel_booking", "Cancel a hotel reservation.", ["confirmation_number: string: Confirmation number"]),
        (
            "rent_car",
            "Search and book a rental car at a location for dates.",
            [
                "location: string: City or airport",
                "pickup: datetime: Pick-up",
                "dropoff: datetime: Return",
                "car_class?: string: e.g. compact, SUV",
            ],
        ),
        (
            "book_train",
            "Search and book train tickets between two stations.",
            ["origin: string: Station", "destination: string: Station", "departure: datetime: Earliest departure"],
        ),
        (
            "get_travel_policy",
            "Check a trip against the company travel policy: class, price limits, approvals.",
            ["trip: string: Description of the trip"],
        ),
        (
            "submit_travel_request",
            "Ask a manager to approve a business trip with destination, dates and budget.",
            ["destination: string: Where", "start: date: From", "end: date: To", "budget: number: Estimated cost"],
        ),
        (
            "get_visa_requirements",
            "Check whether a traveller needs a visa for a country, by nationality.",
            ["nationality: string: Passport country", "destination: string: Country visited"],
        ),
    ],
    "places": [
        (
            "get_weather_forecast",
            "Weather forecast for a location for the coming days: temperature, rain and wind.",
            ["location: string: City or coordinates", "days?: integer: Number of days"],
        ),
        ("get_current_weather", "Current weather conditions at a location.", ["location: string: City or coordinates"]),
        (
            "get_air_quality",
            "Air quality index and pollutant levels at a location.",
            ["location: string: City or coordinates"],
        ),
        ("geocode_address", "Turn an address into latitude and longitude.", ["address: string: Address"]),
        (
            "reverse_geocode",
            "Turn latitude and longitude into a street address.",
            ["latitude: number: Latitude", "longitude: number: Longitude"],
        ),
        (
            "get_directions",
            "Route and travel time between two places by car, public transport, bike or on foot.",
            ["origin: string: Start", "destination: string: End", "mode?: enum(car|transit|bike|walk): How to travel"],
        ),
        (
            "calculate_distance",
            "Distance between two places or coordinates.",
            ["origin: string: Start", "destination: string: End"],
        ),
        (
            "search_nearby_places",
            "Find places of a kind (restaurants, pharmacies, ATMs) near a location.",
            [
                "kind: string: e.g. pharmacy",
                "location: string: Address or coordinates",
                "open_now?: boolean: Only open places",
            ],
        ),
        (
            "get_traffic_conditions",
            "Current traffic and incidents on a route.",
            ["origin: string: Start", "destination: string: End"],
        ),
        (
            "get_sunrise_sunset",
            "Sunrise and sunset times for a place and a date.",
            ["location: string: City or coordinates", "date?: date: Day"],
        ),
        ("get_local_time", "Current local time and time zone of a city.", ["city: string: City"]),
        (
            "get_public_holidays",
            "Public holidays of a country in a year.",
            ["country: string: ISO country code", "year: integer: Year"],
        ),
    ],
    "finance": [
        (
            "submit_expense_report",
            "Submit an expense claim with receipts for reimbursement.",
            [
                "description: string: What the expenses were for",
                "receipts: string[]: File ids of the receipts",
                "total: number: Total amount",
            ],
        ),
        (
            "approve_expense_report",
            "Approve or reject an employee's expense claim.",
            ["report_id: string: Expense report id", "decision: enum(approve|reject): Decision"],
        ),
        (
            "create_journal_entry",
            "Post a manual journal entry with debit and credit lines to the general ledger.",
            ["date: date: Booking date", "lines: string[]: Lines as account:debit:credit", "memo?: string: Memo"],
        ),
        (
            "get_account_balance",
            "Balance of a general-ledger account on a date.",
            ["account: string: Account number", "date?: date: As of"],
        ),
        (
            "get_profit_and_loss",
            "Profit and loss statement (income statement) for a period.",
            ["from_date: date: Start", "to_date: date: End"],
        ),
        ("get_balance_sheet", "Balance sheet as of a date.", ["date: date: As of"]),
        (
            "reconcile_bank_transactions",
            "Match bank statement lines against ledger entries and list the unmatched ones.",
            ["bank_account: string: Bank account", "month: string: e.g. 2026-04"],
        ),
        (
            "list_bank_transactions",
            "List the transactions on a company bank account for a period.",
            ["bank_account: string: Bank account", "from_date: date: Start", "to_date: date: End"],
        ),
        (
            "create_vendor_bill",
            "Record a bill received from a supplier for payment.",
            [
                "supplier_id: string: Supplier",
                "amount: number: Amount",
                "due_date: date: Due date",
                "file_id?: string: Scan of the bill",
            ],
        ),
        (
            "pay_vendor_bill",
            "Schedule the payment of an approved supplier bill.",
            ["bill_id: string: Bill id", "pay_on?: date: Payment date"],
        ),
        ("get_accounts_receivable_aging", "Outstanding customer balances grouped by age: 30, 60 and 90+ days.", []),
        (
            "close_accounting_period",
            "Lock a month so no more entries can be posted to it.",
            ["month: string: e.g. 2026-04"],
        ),
        (
            "get_budget_vs_actual",
            "Compare spending against budget per department or cost centre.",
            ["period: string: e.g. 2026-Q2", "department?: string: Department"],
        ),
        (
            "request_purchase_approval",
            "Ask for approval to buy something above your spending limit.",
            ["item: string: What to buy", "amount: number: Cost", "justification: string: Why it is needed"],
        ),
        (
            "calculate_vat_return",
            "Prepare the VAT return for a period from sales and purchases.",
            ["period: string: e.g. 2026-Q1"],
        ),
    ],
    "marketing": [
        (
            "create_email_campaign",
            "Create an email newsletter campaign for a customer segment.",
            [
                "name: string: Campaign name",
                "segment_id: string: Audience",
                "subject: string: Subject line",
                "body: string: HTML or Markdown content",
            ],
        ),
        (
            "send_campaign",
            "Send an email campaign now or schedule it.",
            ["campaign_id: string: Campaign id", "send_at?: datetime: When (default: now)"],
        ),
        (
            "get_campaign_stats",
            "Opens, clicks, conversions and unsubscribes of an email campaign.",
            ["campaign_id: string: Campaign id"],
        ),
        (
            "create_coupon",
            "Create a discount code with an amount or percentage, validity dates and usage limits.",
            [
                "code: string: The code customers type",
                "percent_off?: number: Percentage",
                "amount_off?: number: Fixed amount",
                "valid_until?: date: Last valid day",
                "max_uses?: integer: Total uses allowed",
            ],
        ),
        ("deactivate_coupon", "Disable a discount code.", ["code: string: The code"]),
        (
            "validate_coupon",
            "Check whether a discount code is valid for a cart and how much it takes off.",
            ["code: string: The code", "cart_total: number: Cart value"],
        ),
        (
            "create_customer_segment",
            "Define a customer segment by rules such as spend, location or last purchase.",
            ["name: string: Segment name", "rules: string[]: Conditions, e.g. total_spend>500"],
        ),
        (
            "add_to_mailing_list",
            "Subscribe an email address to a mailing list (with consent).",
            ["email: string: Email address", "list_id: string: Mailing list"],
        ),
        (
            "unsubscribe_recipient",
            "Remove an email address from all marketing mailing lists.",
            ["email: string: Email address"],
        ),
        (
            "schedule_social_post",
            "Schedule a post on the brand's social media accounts.",
            [
                "text: string: Post text",
                "networks: string[]: e.g. instagram, linkedin",
                "publish_at: datetime: When",
                "image_id?: string: Image file id",
            ],
        ),
        (
            "get_social_mentions",
            "Find recent social media posts that mention the brand.",
            ["since?: date: Only newer posts"],
        ),
        (
            "create_landing_page",
            "Publish a landing page for a campaign from a template.",
            ["title: string: Page title", "template: string: Template name", "slug: string: URL path"],
        ),
        (
            "get_loyalty_points",
            "Show a customer's loyalty points balance and tier.",
            ["customer_id: string: Customer id"],
        ),
        (
            "add_loyalty_points",
            "Award or deduct loyalty points for a customer.",
            ["customer_id: string: Customer id", "points: integer: Points (negative to deduct)", "reason: string: Why"],
        ),
        (
            "create_referral_link",
            "Create a personal referral link that rewards a customer for each friend who buys.",
            ["customer_id: string: Customer id"],
        ),
        (
            "get_ad_spend",
            "Ad spend, clicks and return on ad spend per channel for a period.",
            ["from_date: date: Start", "to_date: date: End"],
        ),
    ],
    "identity": [
        (
            "create_user_account",
            "Create a login account for a person with a role.",
            ["email: string: Work email", "name: string: Full name", "role: string: Initial role"],
        ),
        (
            "disable_user_account",
            "Block a user from signing in (e.g. when they leave) while keeping their data.",
            ["user_id: string: User id or email"],
        ),
        ("reset_password", "Send a password reset link to a user.", ["user_id: string: User id or email"]),
        (
            "unlock_account",
            "Unlock an account that was locked after too many failed sign-ins.",
            ["user_id: string: User id or email"],
        ),
        (
            "assign_role",
            "Give a user a role or a permission set.",
            ["user_id: string: User id or email", "role: string: Role name", "system?: string: Application"],
        ),
        ("revoke_role", "Remove a role from a user.", ["user_id: string: User id or email", "role: string: Role name"]),
        (
            "list_user_permissions",
            "List what a user is allowed to do and through which roles.",
            ["user_id: string: User id or email"],
        ),
        (
            "reset_mfa",
            "Reset a user's two-factor authentication so they can enrol a new device.",
            ["user_id: string: User id or email"],
        ),
        (
            "list_active_sessions",
            "List the devices and locations where a user is signed in.",
            ["user_id: string: User id or email"],
        ),
        ("revoke_sessions", "Sign a user out of all devices.", ["user_id: string: User id or email"]),
        (
            "create_api_key",
            "Create an API key for a service account with scopes and an expiry date.",
            ["service_account: string: Service account", "scopes: string[]: Permissions", "expires?: date: Expiry"],
        ),
        ("revoke_api_key", "Revoke an API key so it stops working immediately.", ["key_id: string: Key id"]),
        (
            "get_audit_log",
            "Who did what and when: the audit trail of a user or a resource.",
            ["subject: string: User or resource", "since?: date: Only newer entries"],
        ),
        (
            "scan_for_vulnerabilities",
            "Scan a repository or container image for known vulnerabilities (CVEs).",
            ["target: string: Repository or image reference"],
        ),
        (
            "report_phishing",
            "Report a suspicious email as phishing to the security team.",
            ["email_id: string: Email id"],
        ),
        (
            "verify_customer_identity",
            "Verify a customer's identity with a one-time code sent to their phone or email.",
            ["customer_id: string: Customer id", "channel: enum(sms|email): Where to send the code"],
        ),
        (
            "export_personal_data",
            "Export all personal data held about a customer (GDPR access request).",
            ["customer_id: string: Customer id or email"],
        ),
        (
            "delete_personal_data",
            "Erase a customer's personal data (GDPR right to be forgotten).",
            ["customer_id: string: Customer id or email"],
        ),
    ],
    "projects": [
        (
            "create_task",
            "Create a task with a title, an assignee, a due date and a project.",
            ["title: string: Title", "assignee?: string: Person", "due?: date: Due date", "project?: string: Project"],
        ),
        (
            "update_task_status",
            "Move a task to another status: to do, in progress or done.",
            ["task_id: string: Task id", "status: enum(todo|in_progress|done): New status"],
        ),
        (
            "list_tasks",
            "List tasks by project, assignee, status or due date.",
            ["project?: string: Project", "assignee?: string: Person", "status?: string: Status"],
        ),
        ("assign_task", "Assign a task to a person.", ["task_id: string: Task id", "assignee: string: Person"]),
        ("comment_on_task", "Add a comment to a task.", ["task_id: string: Task id", "text: string: Comment"]),
        (
            "create_project",
            "Create a project with members and a deadline.",
            ["name: string: Project name", "members?: string[]: People", "deadline?: date: Deadline"],
        ),
        (
            "get_project_status",
            "Progress of a project: open and overdue tasks, milestones.",
            ["project: string: Project"],
        ),
        (
            "create_bug_report",
            "File a bug in the issue tracker with steps to reproduce and a severity.",
            [
                "title: string: Title",
                "steps: string: Steps to reproduce",
                "severity?: enum(low|medium|high|critical): Severity",
            ],
        ),
        (
            "create_sprint",
            "Plan a sprint with start and end dates and the tasks in it.",
            ["name: string: Sprint name", "start: date: Start", "end: date: End", "task_ids?: string[]: Tasks"],
        ),
        ("log_time_on_task", "Record the time spent on a task.", ["task_id: string: Task id", "hours: number: Hours"]),
        (
            "create_milestone",
            "Add a milestone with a date to a project.",
            ["project: string: Project", "name: string: Milestone", "date: date: Date"],
        ),
        ("get_team_workload", "How many open tasks and estimated hours each team member has.", ["team: string: Team"]),
        (
            "link_tasks",
            "Mark one task as blocking, or related to, another.",
            [
                "task_id: string: Task id",
                "other_task_id: string: The other task",
                "kind: enum(blocks|relates): Link type",
            ],
        ),
    ],
    "utilities": [
        (
            "translate_text",
            "Translate text into another language.",
            ["text: string: Text", "target_language: string: Language code, e.g. de"],
        ),
        ("detect_language", "Detect the language of a text.", ["text: string: Text"]),
        (
            "calculate",
            "Evaluate a math expression and return the result.",
            ["expression: string: e.g. (19.99 * 3) * 1.19"],
        ),
        ("generate_qr_code", "Create a QR code image for a URL or a text.", ["content: string: URL or text"]),
        ("shorten_url", "Create a short link for a long URL.", ["url: string: The long URL"]),
        (
            "get_stock_quote",
            "Current share price and day change for a stock ticker symbol.",
            ["ticker: string: e.g. AAPL"],
        ),
        ("web_search", "Search the web and return the top results with snippets.", ["query: string: Search query"]),
        ("fetch_web_page", "Download a web page and return its readable text.", ["url: string: Page URL"]),
        ("create_note", "Save a personal note.", ["title: string: Title", "text: string: Note"]),
        ("search_notes", "Find personal notes by words.", ["query: string: Words"]),
        ("text_to_speech", "Turn text into an audio file.", ["text: string: Text", "voice?: string: Voice name"]),
        (
            "transcribe_audio",
            "Turn a recording into text.",
            ["file_id: string: Audio file id", "language?: string: Language code"],
        ),
        (
            "generate_image",
            "Create an image from a text description.",
            ["prompt: string: What the image shows", "size?: enum(512x512|1024x1024): Size"],
        ),
    ],
    "workplace": [
        (
            "report_facility_issue",
            "Report a broken item in the office (light, heating, printer) to facilities.",
            ["location: string: Building and room", "problem: string: What is broken"],
        ),
        (
            "order_office_supplies",
            "Order office supplies such as paper, toner or pens.",
            ["items: string[]: Lines as item:quantity"],
        ),
        (
            "register_visitor",
            "Register a visitor at reception with name, host and arrival time.",
            [
                "visitor_name: string: Visitor",
                "company?: string: Visitor's company",
                "host: string: Employee they visit",
                "arrival: datetime: Arrival time",
            ],
        ),
        ("book_desk", "Reserve a desk in the office for a day.", ["date: date: Day", "area?: string: Floor or zone"]),
        (
            "request_software_license",
            "Request a software licence for an employee.",
            ["software: string: Product name", "employee_id: string: Employee"],
        ),
        (
            "list_it_assets",
            "List the laptops, phones and other devices assigned to an employee.",
            ["employee_id: string: Employee"],
        ),
        (
            "order_laptop",
            "Order a laptop for a new or existing employee from the approved models.",
            ["employee_id: string: Employee", "model: string: Approved model"],
        ),
    ],
}

# (query, terms a model would send to a keyword search, expected tool)
QUERIES: list[tuple[str, list[str], str]] = [
    ("Where is my package? The tracking number is 1Z999AA10123456784.", ["track", "package"], "track_shipment"),
    ("I want to cancel my order SO-10023, I ordered the wrong size.", ["cancel", "order"], "cancel_order"),
    ("Please give the customer their money back for payment pay_8812.", ["refund", "payment"], "refund_payment"),
    ("What will the weather be like in Berlin this weekend?", ["weather", "forecast"], "get_weather_forecast"),
    (
        "Can you find a time next week when Anna, Ben and I are all free for an hour?",
        ["free", "time", "meeting"],
        "find_free_slots",
    ),
    ("Roll back the checkout service, the new release is broken.", ["rollback", "deploy"], "rollback_deployment"),
    ("How many vacation days do I have left?", ["vacation", "days", "balance"], "get_leave_balance"),
    ("Which flights go from Frankfurt to Madrid on 12 May?", ["flight", "search"], "search_flights"),
    ("Has invoice INV-2041 been paid?", ["invoice", "status"], "get_invoice"),
    ("List all invoices that are past their due date.", ["overdue", "invoices"], "list_overdue_invoices"),
    ("Add Maria Lopez from Acme as a new contact, email maria@acme.com.", ["contact", "create"], "create_contact"),
    ("Move the Globex deal to negotiation.", ["deal", "stage"], "update_deal_stage"),
    (
        "The customer is furious and wants a supervisor, escalate ticket 5521.",
        ["escalate", "ticket"],
        "escalate_ticket",
    ),
    ("I forgot my password and can't log in.", ["password", "reset"], "reset_password"),
    (
        "Tom left the company today, make sure he can no longer sign in.",
        ["disable user", "deactivate account"],
        "disable_user_account",
    ),
    ("Who is on call for the payments team right now?", ["on-call", "payments"], "get_on_call"),
    (
        "Is the API slower than usual? Show me the p95 latency of the orders service for the last hour.",
        ["latency", "metrics"],
        "get_service_metrics",
    ),
    ("Show me the error logs of the payment service from last night.", ["logs", "error"], "query_logs"),
    ("Translate this customer email into German.", ["translate"], "translate_text"),
    (
        "How do I get from the office to the airport by public transport?",
        ["directions", "route", "transport"],
        "get_directions",
    ),
    (
        "We counted 20 more units of SKU-3301 than the system says; fix the stock.",
        ["inventory", "adjust", "stock"],
        "adjust_inventory",
    ),
    ("How many blue hoodies do we have in the Leipzig warehouse?", ["stock", "warehouse"], "get_stock_level"),
    ("Create a 15% off code for the summer sale.", ["discount", "code"], "create_coupon"),
    (
        "How did last week's newsletter perform? Opens and clicks, please.",
        ["newsletter", "stats"],
        "get_campaign_stats",
    ),
    ("Share the Q3 report folder with Lisa, read-only.", ["share", "folder"], "share_file"),
    ("Turn contract.docx into a PDF.", ["convert", "pdf"], "convert_document"),
    ("Send the NDA to the supplier so they can sign it.", ["signature", "sign"], "request_e_signature"),
    ("Book the big meeting room on Thursday at 2 pm for 10 people.", ["meeting room", "book"], "book_meeting_room"),
    ("Decline the invitation to Friday's budget review.", ["decline", "invitation"], "respond_to_invitation"),
    ("I'm on holiday from 1 to 14 August, set up my auto-reply.", ["out of office", "auto-reply"], "set_out_of_office"),
    ("Text the courier that the gate code is 4711.", ["sms", "text message"], "send_sms"),
    ("Post in #releases that version 2.4 is live.", ["slack", "message"], "send_slack_message"),
    ("Find the email from DHL about the customs invoice.", ["email", "search"], "search_emails"),
    ("Charge the customer's saved card 49.90 EUR.", ["charge", "card"], "charge_card"),
    (
        "A customer filed a chargeback; send the bank our proof of delivery.",
        ["chargeback", "dispute", "evidence"],
        "submit_dispute_evidence",
    ),
    ("How much is 250 US dollars in euros?", ["currency", "convert"], "convert_currency"),
    (
        "Upgrade customer 7781 from the Basic plan to Pro.",
        ["subscription", "plan", "upgrade"],
        "change_subscription_plan",
    ),
    ("Which products sold best last month?", ["best-selling", "products"], "get_top_products"),
    ("How many people visited the website yesterday?", ["website", "visitors"], "get_website_traffic"),
    (
        "Run this against the warehouse: SELECT count(*) FROM orders WHERE status = 'paid'.",
        ["sql", "query"],
        "run_sql_query",
    ),
    ("Is flight LH400 delayed?", ["flight", "status", "delay"], "get_flight_status"),
    ("Find me a hotel in Lisbon for three nights under 150 euros.", ["hotel"], "search_hotels"),
    ("Do I need a visa to travel to India with a German passport?", ["visa"], "get_visa_requirements"),
    ("What's the street address at 52.52, 13.405?", ["address", "coordinates"], "reverse_geocode"),
    ("Is there a pharmacy open near Alexanderplatz?", ["pharmacy", "nearby"], "search_nearby_places"),
    (
        "Submit my taxi receipts from the Munich trip so I get the money back.",
        ["expense", "receipt", "reimbursement"],
        "submit_expense_report",
    ),
    ("What did we earn and spend in Q2? Show the P&L.", ["profit", "loss"], "get_profit_and_loss"),
    ("Match last month's bank statement against our books.", ["bank", "reconcile"], "reconcile_bank_transactions"),
    ("Scale the search service to 6 instances for the sale.", ["scale", "replicas"], "scale_service"),
    ("Why does pod api-7f9c keep crashing? Show me what it printed.", ["pod", "logs"], "get_pod_logs"),
    ("Open a PR from feature/coupons into main.", ["pull request"], "create_pull_request"),
    (
        "The certificate for shop.example.com expires next week, renew it.",
        ["certificate", "renew"],
        "renew_tls_certificate",
    ),
    ("Turn on the new checkout for 10% of users.", ["feature flag"], "toggle_feature_flag"),
    ("Declare a SEV-1: checkout is down.", ["incident"], "create_incident"),
    ("Create a task for Jonas to update the price list by Friday.", ["task", "create"], "create_task"),
    ("File a bug: the coupon field accepts expired codes.", ["bug"], "create_bug_report"),
    ("Who on my team has too much on their plate right now?", ["workload", "team"], "get_team_workload"),
    ("Make a QR code for our menu link.", ["qr"], "generate_qr_code"),
    ("What's Apple's share price today?", ["stock", "price"], "get_stock_quote"),
    ("A visitor from Siemens arrives at 10:00 to see Julia.", ["visitor"], "register_visitor"),
    (
        "Somebody sent me a suspicious email asking for my bank login.",
        ["phishing", "suspicious email"],
        "report_phishing",
    ),
    ("The customer wants a copy of all the data we hold about her.", ["personal data", "gdpr"], "export_personal_data"),
    ("Give Sarah admin rights in the billing system.", ["role", "admin", "permission"], "assign_role"),
    ("Who has applied for the backend developer job?", ["candidates", "applicants"], "list_candidates"),
    (
        "Can we deliver to 12 Baker Street, London, or is that address wrong?",
        ["address", "validate"],
        "validate_address",
    ),
    ("How much would it cost to ship a 3 kg box to Vienna?", ["shipping", "rates", "cost"], "get_shipping_rates"),
    (
        "The parcel never arrived and tracking hasn't moved in 10 days; open a claim.",
        ["lost", "parcel", "claim"],
        "report_lost_parcel",
    ),
    ("The customer moved; change the delivery address on order SO-9921.", ["address", "order"], "update_order_address"),
    ("What are the most common exceptions in production today?", ["errors", "exceptions"], "list_top_errors"),
    ("Show me what customers wrote about the trail running shoes.", ["reviews"], "list_product_reviews"),
]


def parameter(spec: str) -> tuple[str, bool, dict]:
    """`"name?: type: description"` → (name, required, JSON Schema)."""
    name, kind, description = (part.strip() for part in spec.split(":", 2))
    required = not name.endswith("?")
    schema: dict = {"description": description}
    if kind.startswith("enum("):
        schema = {"type": "string", "enum": kind[5:-1].split("|"), **schema}
    elif kind == "string[]":
        schema = {"type": "array", "items": {"type": "string"}, **schema}
    elif kind in ("date", "datetime"):
        schema = {"type": "string", "format": "date" if kind == "date" else "date-time", **schema}
    else:
        assert kind in ("string", "integer", "number", "boolean"), spec
        schema = {"type": kind, **schema}
    return name.rstrip("?"), required, schema


def parameters(specs: list[str]) -> dict | None:
    if not specs:
        return None
    parsed = [parameter(s) for s in specs]
    out = {"type": "object", "properties": {n: s for n, _, s in parsed}}
    required = [n for n, r, _ in parsed if r]
    return {**out, "required": required} if required else out


def build() -> dict:
    tools = [
        {"name": name, "domain": domain, "description": description, "parameters": parameters(params)}
        for domain, entries in DOMAINS.items()
        for name, description, params in entries
    ]
    names = [t["name"] for t in tools]
    assert len(names) == len(set(names)), "duplicate tool names"
    for _query, _terms, expected in QUERIES:
        assert expected in names, expected
    return {
        "about": "A realistic tool catalogue for the tool-search week: hand-written names, descriptions "
        "and parameters across business domains, and labelled queries (query, the terms a model "
        "would send to a keyword search, the expected tool). Built by scripts/build_tool_catalog.py.",
        "tools": tools,
        "queries": [{"query": q, "terms": t, "expected": e} for q, t, e in QUERIES],
    }


if __name__ == "__main__":
    catalog = build()
    OUT.write_text(json.dumps(catalog, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(catalog['tools'])} tools in {len(DOMAINS)} domains, {len(catalog['queries'])} queries")
