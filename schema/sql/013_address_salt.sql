-- 013_address_salt.sql: the secret key of the hash that logs a registered
-- mail address.  The log and with it the hash go to every side in every
-- bundle; keyed with the game's id, which the bundles show too, anyone
-- could try the club's addresses against it.  Keyed with 32 random bytes
-- that stay in the judge's table it hides the address and still binds the
-- entry to it: the judge shows an address's owner the key to check it.
-- An older game's rows have none (their entries hashed with the game's id).
ALTER TABLE mail_party ADD COLUMN address_salt BLOB;
