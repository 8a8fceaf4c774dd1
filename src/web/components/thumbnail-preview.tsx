import './thumbnail-preview.css';

/** The picture just picked for a profile (`useThumbnailPick`), round as it will be shown; nothing before. */
export function ThumbnailPreview({ url, alt }: { url: string | null; alt: string }) {
  return url ? <img className="thumbnail-preview" src={url} alt={alt} width={80} height={80} /> : null;
}
