// The staff member of a request and the one per-unit access rule every staff page uses:
// an admin reaches every unit; a unit manager ("gerente") only the units assigned to them.
// The contract between the staff kit and the identity feature: identity (sessions, login)
// provides what is declared below, the kit and the features' staff routes use it, so the
// kit never imports a feature.
import type { FastifyReply } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** the logged-in staff member, set by requireStaff / requireAdmin (null before, or for a visitor) */
    staff: StaffUser | null;
  }
  interface FastifyInstance {
    /** preHandler: lets logged-in, active staff through; others go to the login page. */
    requireStaff(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** preHandler: admins only (403 for a unit manager). */
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

export type Role = 'admin' | 'gerente';

export interface StaffUser {
  id: number;
  email: string;
  nome: string;
  papel: Role;
  /** units a "gerente" may see; empty for admins (who see all) */
  unidadeIds: number[];
}

/** May this staff member see or change a record of this unit? (unit-less records: admins only) */
export function canAccessUnit(
  staff: Pick<StaffUser, 'papel' | 'unidadeIds'>,
  unidadeId: number | null | undefined,
): boolean {
  if (staff.papel === 'admin') return true;
  return typeof unidadeId === 'number' && staff.unidadeIds.includes(unidadeId);
}

/** The units a query must be limited to: null = every unit (admins). */
export function scopeUnits(staff: Pick<StaffUser, 'papel' | 'unidadeIds'>): number[] | null {
  return staff.papel === 'admin' ? null : staff.unidadeIds;
}

/**
 * A unit filter as a staff page receives it (`?unidade_id=`): the units to query, or
 * forbidden when a manager asks for a unit that is not theirs.
 */
export function unitScope(
  staff: Pick<StaffUser, 'papel' | 'unidadeIds'>,
  requested?: number | null,
): { forbidden: true } | { forbidden: false; unitIds: number[] | null } {
  if (requested)
    return canAccessUnit(staff, requested) ? { forbidden: false, unitIds: [requested] } : { forbidden: true };
  return { forbidden: false, unitIds: scopeUnits(staff) };
}

/** The items of a unit list this staff member may see (pickers, filters). */
export function accessibleUnits<T extends { id: number }>(
  staff: Pick<StaffUser, 'papel' | 'unidadeIds'>,
  units: T[],
): T[] {
  return staff.papel === 'admin' ? units : units.filter((u) => canAccessUnit(staff, u.id));
}
