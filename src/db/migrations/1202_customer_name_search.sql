-- The customer search by name (adminSearchCustomers): the profile name (identity's users.full_name) and the name an
-- approved KYC submission verified (kyc_submissions.verified_name), each found by its beginning (a lower-case prefix
-- read as a range of the text_pattern_ops index) or by whole words in any order (a GIN index of its lower-case
-- words). pg_trgm's substring index is not used: the embedded PGlite loads no extension. The GIN indexes take each
-- write at once (fastupdate off): names change rarely, and a search never reads a list of pending entries.
CREATE INDEX users_full_name_prefix_idx ON users (lower(full_name) text_pattern_ops);
CREATE INDEX users_full_name_words_idx ON users USING gin (string_to_array(lower(full_name), ' ')) WITH (fastupdate = off);
CREATE INDEX kyc_submissions_verified_name_prefix_idx ON kyc_submissions (lower(verified_name) text_pattern_ops)
  WHERE status = 'approved';
CREATE INDEX kyc_submissions_verified_name_words_idx ON kyc_submissions USING gin (string_to_array(lower(verified_name), ' '))
  WITH (fastupdate = off) WHERE status = 'approved';
