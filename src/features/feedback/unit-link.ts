// Links to the feedback forms (the survey and "Fale aqui") name their unit in the address:
// ?unidade=ID from the unit pages, or the older ?unidade_id=ID.
import Type from 'typebox';

/** The query fields that preselect a feedback form's unit (each route reads them in its own order). */
export const UNIT_LINK_QUERY = {
  unidade_id: Type.Optional(Type.String({ maxLength: 30 })),
  unidade: Type.Optional(Type.String({ maxLength: 30 })),
};
