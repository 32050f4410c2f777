/**
 * Uploads a body of unknown length to S3 with bounded memory: a single PutObject when it fits
 * in one part, else a multipart upload fed one part at a time while the next part fills.
 * Written over client-s3 directly rather than @aws-sdk/lib-storage: it is the only thing that
 * package would be used for, and this way the size cap, the digest and the abort-on-failure
 * sit in one place.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from "@aws-sdk/client-s3";
import { pumpBlocks } from "./blocks";
import type { ByteMeter } from "./meter";

/** The PutObject/CreateMultipartUpload fields a put carries. */
export interface PutTarget {
  Bucket: string;
  Key: string;
  ContentType?: string;
}

/** Sends the whole body to `target`; on any failure no object and no open multipart upload remain. */
export async function putStream(client: S3Client, target: PutTarget, body: ReadableStream<Uint8Array>, meter: ByteMeter, partSize: number): Promise<void> {
  const { Bucket, Key } = target;
  let uploadId: string | undefined;
  const parts: CompletedPart[] = [];
  try {
    await pumpBlocks(body, partSize, {
      onChunk: (chunk) => meter.update(chunk),
      write: async (block, offset, last) => {
        if (last && offset === 0) {
          await client.send(new PutObjectCommand({ ...target, Body: block, ContentLength: block.length }));
          return;
        }
        uploadId ??= (await client.send(new CreateMultipartUploadCommand(target))).UploadId;
        const PartNumber = offset / partSize + 1;
        const res = await client.send(new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body: block, ContentLength: block.length }));
        parts.push({ PartNumber, ETag: res.ETag });
      },
    });
    if (uploadId) await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
  } catch (err) {
    // Parts of an unfinished upload are billed and invisible: abort rather than leave them.
    if (uploadId) await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch(() => {});
    throw err;
  }
}
