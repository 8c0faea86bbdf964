// Whose rows a read may see, as a required argument, so that a new route or job cannot forget to choose.
// Seeing every tenant is spelled out: INTERNAL_SCOPE for workers, an admin key's scope for its requests.
import { TrawlError } from '../errors.js';

/**
 * The tenant that owns the rows made while the service runs open (no key): stored as a NULL owner, named so
 * that an admin can ask for them (`?owner=open`) and a reader can tell them from a key's.
 */
export const OPEN_TENANT = 'open';

/**
 * `tenant`: a request's scope. `owner` is its API key id, or null while the service runs open; a key sees only
 * its own rows, and open mode sees only the rows made without a key.
 * `admin`: a request with an admin key. What it makes is its key's (`owner`); it sees every tenant's rows.
 * `internal`: workers, sweepers and jobs, which act on any tenant's rows.
 */
export type TenantScope =
  | { readonly kind: 'tenant'; readonly owner: string | null }
  | { readonly kind: 'admin'; readonly owner: string }
  | { readonly kind: 'internal' };

/** The scope of a request whose tenant (`request.tenant`) is `owner`. */
export function tenantScope(owner: string | null): TenantScope {
  return { kind: 'tenant', owner };
}

/** The scope of a request made with the admin key `keyId`. */
export function adminScope(keyId: string): TenantScope {
  return { kind: 'admin', owner: keyId };
}

/** For workers, sweepers and jobs: every tenant's rows. Never for a request. */
export const INTERNAL_SCOPE: TenantScope = Object.freeze({ kind: 'internal' });

/** The ($scoped, $owner) parameter pair the tenant-filtered statements take. */
export function scopeParams(scope: TenantScope): [boolean, string | null] {
  return scope.kind === 'tenant' ? [true, scope.owner] : [false, null];
}

/** The owner recorded on a row made in `scope` (an internal caller makes rows that belong to no key). */
export function scopeOwner(scope: TenantScope): string | null {
  return scope.kind === 'internal' ? null : scope.owner;
}

/** Whether `scope` may see a row owned by `owner`: the rule the tenant-filtered statements apply, in process. */
export function scopeSees(scope: TenantScope, owner: string | null): boolean {
  return scope.kind !== 'tenant' || scope.owner === owner;
}

/** The name of the tenant that owns a row: its key id, or OPEN_TENANT for a row made while open. */
export function tenantName(owner: string | null): string {
  return owner ?? OPEN_TENANT;
}

/**
 * The scope of a list asked for one tenant's rows (`?owner=<key id | open>`): only an admin may name another
 * tenant than its own; naming its own is the list it gets anyway.
 */
export function listScope(scope: TenantScope, tenant: string | undefined): TenantScope {
  if (tenant === undefined) return scope;
  const owner = tenant === OPEN_TENANT ? null : tenant;
  if (scope.kind === 'tenant' && scope.owner !== owner) {
    throw new TrawlError('forbidden', "only an admin API key may list another tenant's resources", {
      field: 'owner',
    });
  }
  return tenantScope(owner);
}
