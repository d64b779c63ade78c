// A QR code drawn as SVG, for the survey poster and the Pix payment page alike.

/** The QR code of `text` as a standalone SVG (paths only: no script, no style attribute). */
export async function qrSvg(text: string): Promise<string> {
  // qrcode (and pngjs under it) is loaded by the first QR code, not at start: most processes
  // draw none for a long while, and every process would hold it (docs/decisions/135).
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 4,
    color: { dark: '#000000', light: '#ffffff' },
  });
}
