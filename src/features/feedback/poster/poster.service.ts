// The printed poster's QR code: an absolute survey link (PUBLIC_URL) marked origem=cartaz,
// so answers from the poster are counted apart from the site's.
import { SURVEY_PATH } from '../survey/survey.view';
import type { Origin } from '../survey/origin';

export function surveyUrl(publicUrl: string, unitId: number, origem: Origin): string {
  return `${publicUrl}${SURVEY_PATH}?unidade_id=${unitId}&origem=${origem}`;
}
