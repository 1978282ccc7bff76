-- Issue 41: a known device holds its privilege only for the client it signed in from. The address key (an IPv4
-- address, or an IPv6 /64) and a hash of the User-Agent of its last sign-in; a token presented from another address
-- AND another client is an unrecognised source. NULL: remembered before, bound at the device's next sign-in.
ALTER TABLE known_devices ADD COLUMN address_key text, ADD COLUMN client_hash text;
