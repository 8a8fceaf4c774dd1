/** What the upload functions accept. */
export type UploadData = Blob | Uint8Array | ArrayBuffer;

/** A request body: Blobs stay Blobs (no copy, also in browsers), bytes are sliced as views (no copy). */
export type BodyPart = Blob | Uint8Array;

/** The bytes of an upload, sliceable without copying. */
export class UploadBytes {
  readonly size: number;
  /** The Blob's MIME type; `''` for raw bytes. */
  readonly type: string;
  private readonly data: BodyPart;

  constructor(data: UploadData) {
    if (typeof Blob !== 'undefined' && data instanceof Blob) {
      this.data = data;
      this.type = data.type;
    } else if (data instanceof ArrayBuffer) {
      this.data = new Uint8Array(data);
      this.type = '';
    } else if (ArrayBuffer.isView(data)) {
      this.data = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      this.type = '';
    } else {
      throw new TypeError('Upload data must be a Blob, a Uint8Array or an ArrayBuffer.');
    }
    this.size = this.data instanceof Uint8Array ? this.data.byteLength : this.data.size;
  }

  slice(start: number, end: number): BodyPart {
    return this.data instanceof Uint8Array ? this.data.subarray(start, end) : this.data.slice(start, end);
  }

  whole(): BodyPart {
    return this.data;
  }
}
