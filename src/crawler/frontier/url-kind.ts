// What a link probably points at, before and after fetching it (docs/reference.md#document-model): pages are parsed, binary
// documents (pdf, doc, docx, ppt, pptx, odt) and images are recorded with URL, type and size. Before the fetch only
// the path's extension is known; after it, the Content-Type header wins over the extension.
import { type DocumentFetchType, isPlainTextBody } from '../vocabulary.js';

export type UrlKind = 'page' | 'document' | 'image';
export type DocumentType = 'PDF' | 'DOC' | 'DOCX' | 'PPT' | 'PPTX' | 'ODT';

const DOCUMENT_EXTENSIONS: Readonly<Record<string, DocumentType>> = {
  pdf: 'PDF',
  doc: 'DOC',
  docx: 'DOCX',
  ppt: 'PPT',
  pptx: 'PPTX',
  odt: 'ODT',
};

const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'svg',
  'ico',
  'bmp',
  'avif',
]);

/** IANA media types of the six document types (plus the pre-registration application/x-pdf still seen). */
const DOCUMENT_MEDIA_TYPES: Readonly<Record<string, DocumentType>> = {
  'application/pdf': 'PDF',
  'application/x-pdf': 'PDF',
  'application/msword': 'DOC',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
  'application/vnd.ms-powerpoint': 'PPT',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PPTX',
  'application/vnd.oasis.opendocument.text': 'ODT',
};

/** Content types that say nothing about the body: the extension decides. */
const UNINFORMATIVE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'application/binary',
  'application/download',
  'application/x-download',
  'application/force-download',
  'application/unknown',
]);

/** Lower-case extension of the URL path's last segment ("" when none); query and fragment are ignored. */
export function pathExtension(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.replace(/[?#].*$/s, ''); // a relative or broken URL: still read its path
  }
  let segment = path.slice(path.lastIndexOf('/') + 1);
  try {
    segment = decodeURIComponent(segment); // "r%2Epdf" is "r.pdf"
  } catch {
    // malformed escape: read the raw text
  }
  const dot = segment.lastIndexOf('.');
  if (dot <= 0) return ''; // no dot, or a dot file such as ".pdf" with no name
  return segment.slice(dot + 1).toLowerCase();
}

/** The kind a link probably has, from its path extension; anything unknown is a page. */
export function classifyUrl(url: string): UrlKind {
  const extension = pathExtension(url);
  if (extension in DOCUMENT_EXTENSIONS) return 'document';
  if (IMAGE_EXTENSIONS.has(extension)) return 'image';
  return 'page';
}

/**
 * The binary document type of a fetched resource, or null when it is not one. A specific Content-Type wins
 * over the extension (a ".pdf" URL served as text/html is a page); a missing or generic one
 * (application/octet-stream and the like) leaves the decision to the extension.
 */
export function documentTypeFor(contentType: string | null, url: string): DocumentType | null {
  const mediaType = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType !== '' && !UNINFORMATIVE_MEDIA_TYPES.has(mediaType)) {
    return DOCUMENT_MEDIA_TYPES[mediaType] ?? null;
  }
  return DOCUMENT_EXTENSIONS[pathExtension(url)] ?? null;
}

/**
 * The `documents.types` entry a fetched resource falls under, or null when none does (HTML, other text): its
 * document type, `txt` for text/plain, `image` for an image (by media type, or by extension when untyped).
 */
export function documentFetchTypeFor(contentType: string | null, url: string): DocumentFetchType | null {
  const document = documentTypeFor(contentType, url);
  if (document !== null) return document.toLowerCase() as DocumentFetchType;
  if (isPlainTextBody(contentType)) return 'txt';
  const mediaType = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType.startsWith('image/')) return 'image';
  if (mediaType === '' || UNINFORMATIVE_MEDIA_TYPES.has(mediaType)) {
    return IMAGE_EXTENSIONS.has(pathExtension(url)) ? 'image' : null;
  }
  return null;
}
