-- sessauth (@sessauth/prisma), step 0009-login-function (PostgreSQL only): the function that lets
-- a login write its session in one round trip (the store's one statement calls it, then inserts).
-- It takes the user's advisory lock, revokes the oldest active sessions beyond the cap and says
-- whether the newcomer is among them. Until it exists, logins take a transaction, as before.
-- It keeps this migration's search_path, so it finds "sessauth_session" in the schema it was made
-- in, and refuses (the store then takes its transaction) when the caller's insert goes to another
-- table. A runtime role other than the migration's needs EXECUTE on it (granted to PUBLIC by default).

create or replace function "sessauth_session_evict_beyond_cap"(p_lock_key text, p_user_id text, p_newcomer_id text, p_now bigint, p_cap integer, p_table regclass, p_lock_wait_ms integer)
returns boolean language plpgsql volatile set search_path from current as $sessauth$
declare
  v_newcomer_evicted boolean;
begin
  if pg_catalog.current_setting('transaction_isolation') <> 'read committed' then
    raise exception 'sessauth: % needs READ COMMITTED', 'sessauth_session_evict_beyond_cap' using errcode = 'SA001';
  end if;
  if p_table is distinct from pg_catalog.to_regclass('"sessauth_session"') then
    raise exception 'sessauth: % keeps the cap of another table than %', 'sessauth_session_evict_beyond_cap', p_table using errcode = 'SA002';
  end if;
  perform pg_catalog.set_config('lock_timeout', greatest(p_lock_wait_ms, 1)::text || 'ms', true);
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(p_lock_key, 0));
  with evicted as (
    select id from (
      select id, row_number() over (order by created_at desc, id collate "C" desc) as place
      from (
        select id, created_at from "sessauth_session" where user_id = p_user_id and expired_at is null and expires_at > p_now
        union all select p_newcomer_id, p_now
      ) active
    ) ranked where place > greatest(p_cap, 0)
  ), revoked as (
    update "sessauth_session" set expired_at = p_now
    where id in (select id from evicted) and id <> p_newcomer_id and expired_at is null
  )
  select exists (select 1 from evicted where id = p_newcomer_id) into v_newcomer_evicted;
  return v_newcomer_evicted;
end
$sessauth$;
