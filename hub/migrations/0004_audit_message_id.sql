-- A write retried with its MessageId (the desktop lost the first answer) is
-- answered from the audit instead of reaching the service twice.
CREATE INDEX audit_message_id ON audit (message_id);
