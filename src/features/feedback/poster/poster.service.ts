// The printed poster's QR code: an absolute survey link (PUBLIC_URL) marked origem=cartaz,
// so answers from the poster are counted apart from the site's.
import { SURVEY_PATH } from '../survey/survey.view';
import type { Origin } from '../survey/origin';

export function surveyUrl(publicUrl: string, unitId: number, origem: Origin): string {
  return `${publicUrl}${SURVEY_PATH}?unidade_id=${unitId}&origem=${origem}`;
}

/** The QR code as a standalone SVG (paths only: no script, no style attribute). */
export async function qrSvg(text: string): Promise<string> {
  // qrcode (and pngjs under it) is loaded by the first poster, not at start: only staff
  // print posters, and every process would hold it (docs/decisions/135).
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 4,
    color: { dark: '#000000', light: '#ffffff' },
  });
}
