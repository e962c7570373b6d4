-- What each customer requires of a visit (GET /api/customerSettings):
-- whether back-dating is allowed, the repair codes and the questions asked
-- at check-out. Refreshed by every sync for the customers it sees.
CREATE TABLE IF NOT EXISTS customer_settings (
    customer_id INTEGER PRIMARY KEY,
    fetched_at  INTEGER NOT NULL,
    json        TEXT    NOT NULL   -- the api.CustomerSettings
);
