import type { StaffUser } from '../../http/auth';

/**
 * Which units a staff member may see. Admins see all (null = no restriction); a unit
 * manager ("gerente") sees only their units, and asking for another unit is forbidden.
 */
export function unitScope(staff: StaffUser, requested?: number | null): { forbidden: true } | { forbidden: false; unitIds: number[] | null } {
  if (staff.papel === 'admin') return { forbidden: false, unitIds: requested ? [requested] : null };
  if (requested) return staff.unidadeIds.includes(requested) ? { forbidden: false, unitIds: [requested] } : { forbidden: true };
  return { forbidden: false, unitIds: staff.unidadeIds };
}

/** May this staff member see a record of this unit? (unit-less records: admins only) */
export function canSeeUnit(staff: StaffUser, unitId: number | null): boolean {
  if (staff.papel === 'admin') return true;
  return unitId !== null && staff.unidadeIds.includes(unitId);
}
