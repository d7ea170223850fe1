-- 014_mail_pgp_last.sql: when the last OpenPGP signature the judge took
-- from a party was made (unix seconds, from the signature; 0: none yet).
-- A signed mail proves who wrote it, not when: sent again by whoever saw it
-- (a new Message-ID is enough to pass the inbox), it would replace the
-- player's later orders.  A signature not later than the last one taken is
-- refused as a mail sent again.
ALTER TABLE mail_party ADD COLUMN pgp_last INTEGER NOT NULL DEFAULT 0;
