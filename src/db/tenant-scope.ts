// Whose rows a read may see, as a required argument, so that a new route or job cannot forget to choose.
// Before this type an omitted owner meant "every tenant"; now seeing every tenant is spelled INTERNAL_SCOPE.

/**
 * `tenant`: a request's scope. `owner` is its API key id, or null while the service runs open; a key sees only
 * its own rows, and open mode sees only the rows made without a key (those are not visible to any key).
 * `internal`: workers, sweepers and jobs, which act on any tenant's rows.
 */
export type TenantScope =
  | { readonly kind: 'tenant'; readonly owner: string | null }
  | { readonly kind: 'internal' };

/** The scope of a request whose tenant (`request.tenant`) is `owner`. */
export function tenantScope(owner: string | null): TenantScope {
  return { kind: 'tenant', owner };
}

/** For workers, sweepers and jobs: every tenant's rows. Never for a request. */
export const INTERNAL_SCOPE: TenantScope = Object.freeze({ kind: 'internal' });

/** The ($scoped, $owner) parameter pair the tenant-filtered statements take. */
export function scopeParams(scope: TenantScope): [boolean, string | null] {
  return scope.kind === 'tenant' ? [true, scope.owner] : [false, null];
}

/** The owner recorded on a row made in `scope` (an internal caller makes rows that belong to no key). */
export function scopeOwner(scope: TenantScope): string | null {
  return scope.kind === 'tenant' ? scope.owner : null;
}

/** Whether `scope` may see a row owned by `owner`: the rule the tenant-filtered statements apply, in process. */
export function scopeSees(scope: TenantScope, owner: string | null): boolean {
  return scope.kind === 'internal' || scope.owner === owner;
}
