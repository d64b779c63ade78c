// What the retention job leaves in place of personal data once its period has passed. They
// are stored values, below the features: the partial indexes of migration
// 2026-11-27T0600_retencao_indices spell them out, the privacy feature's retention job writes
// them, and the volume seed (seeds/volume.ts) writes old rows as that job leaves them.

/** Replaces a free message's text and staff replies once past their period. */
export const REMOVED_TEXT = '[removido ao fim do prazo de guarda]';
/** Replaces a person's name (a lead, a trial booking) once past its period. */
export const ANONYMOUS_PERSON = 'Pessoa anonimizada';
