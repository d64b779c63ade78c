// A unit photo on a public page: AVIF, then WebP, with a JPEG fallback (older photos have
// no AVIF copy: their `formatos` says so), srcset at 480/960/1440,
// width/height against layout shift, lazy below the fold. The branded placeholder when
// the unit has none.
import { brand } from '../../brand/index';
import { heightAt, PHOTO_MIME, photoFormats, photoUrl, photoWidths, type PhotoFormat, type UnitPhoto } from './photos';

export function UnitPhotoPicture({
  photo,
  sizes,
  eager = false,
  decorative = false,
}: {
  photo: UnitPhoto | undefined;
  sizes: string;
  eager?: boolean;
  decorative?: boolean;
}) {
  if (!photo) {
    return (
      <img
        class="unit-photo placeholder"
        src={brand().placeholder}
        alt=""
        width={960}
        height={540}
        loading={eager ? undefined : 'lazy'}
        decoding="async"
      />
    );
  }
  const widths = photoWidths(photo.largura);
  const srcset = (format: PhotoFormat) =>
    widths.map((w) => `${photoUrl(photo.unidade_id, photo.hash, w, format)} ${w}w`).join(', ');
  const fallback = widths.includes(960) ? 960 : widths[widths.length - 1]!;
  return (
    <picture>
      {photoFormats(photo)
        .filter((f) => f !== 'jpg')
        .map((f) => (
          <source key={f} type={PHOTO_MIME[f]} srcset={srcset(f)} sizes={sizes} />
        ))}
      <img
        class="unit-photo"
        src={photoUrl(photo.unidade_id, photo.hash, fallback, 'jpg')}
        srcset={srcset('jpg')}
        sizes={sizes}
        width={fallback}
        height={heightAt(photo, fallback)}
        alt={decorative ? '' : photo.alt}
        loading={eager ? undefined : 'lazy'}
        fetchpriority={eager ? 'high' : undefined}
        decoding="async"
      />
    </picture>
  );
}

/** The 1440 (or largest) JPEG, for og:image. */
export function shareImagePath(photo: UnitPhoto | undefined): string | undefined {
  if (!photo) return undefined;
  const widths = photoWidths(photo.largura);
  return photoUrl(photo.unidade_id, photo.hash, widths[widths.length - 1]!, 'jpg');
}
