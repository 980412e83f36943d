/**
 * The bucket (AWS S3, Cloudflare R2, Backblaze B2, MinIO): the one S3 client of the app and
 * the few calls it makes. Keys are paths relative to DATA_DIR (`projects/1/….tif`), put
 * under S3_PREFIX. Every transfer is a stream (multipart for big files, bounded parts in
 * flight), every request has a time limit.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Transform, Writable, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { getEnv, S3_REQUIRED_SETTINGS, type Env } from '#app/lib/config/env.server.ts'

export interface S3Settings {
  endpoint?: string
  region: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** '' or a folder ending in '/'. */
  prefix: string
}

/** The bucket's settings, or null when none is configured (half-set settings are refused at start). */
export function s3SettingsFrom(env: Env = getEnv()): S3Settings | null {
  if (S3_REQUIRED_SETTINGS.some((name) => !env[name])) return null
  return {
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION!,
    bucket: env.S3_BUCKET!,
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    prefix: env.S3_PREFIX,
  }
}

/** Parts of a multipart upload: 8 MiB, more for files that would need over 9 000 parts (S3 allows 10 000). */
function partSizeFor(size: number) {
  return Math.max(8 * 1024 * 1024, Math.ceil(size / 9000))
}
/** Parts in flight at once: memory is about partSize × this. */
const PARTS_IN_FLIGHT = 3

export interface ObjectFacts {
  size: number
  etag: string | null
  /** The SHA-256 we stored with it (metadata), when it has one. */
  sha256: string | null
}

/** A 404 from the bucket (missing key). */
function isNotFound(error: unknown) {
  return (
    error instanceof S3ServiceException &&
    (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey')
  )
}

/** Hashes what flows through, counting bytes. */
function hashingPassThrough() {
  const hash = crypto.createHash('sha256')
  let size = 0
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk)
      size += chunk.length
      done(null, chunk)
    },
  })
  return { stream, result: () => ({ sha256: hash.digest('hex'), size }) }
}

export class ObjectStore {
  readonly client: S3Client
  readonly bucket: string
  readonly prefix: string

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket
    this.prefix = settings.prefix
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      // Path-style for endpoints of our own choosing (MinIO, test servers); AWS and R2 take both.
      forcePathStyle: Boolean(settings.endpoint),
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // The newer default checksums (CRC with aws-chunked bodies) are not spoken by every
      // S3-compatible store; we check our own SHA-256 instead.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
    })
  }

  objectKey(key: string) {
    return `${this.prefix}${key}`
  }

  /** Uploads a file (multipart past one part), with its SHA-256 kept as metadata. */
  async putFile(
    key: string,
    file: string,
    {
      sha256,
      contentType,
      signal,
      partSize,
    }: { sha256: string; contentType?: string; signal?: AbortSignal; partSize?: number },
  ) {
    const { size } = await fs.promises.stat(file)
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: fs.createReadStream(file, { highWaterMark: 1024 * 1024 }),
        ContentLength: size,
        ContentType: contentType ?? 'application/octet-stream',
        Metadata: { sha256 },
      },
      partSize: partSize ?? partSizeFor(size),
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
      abortController: signal ? abortControllerFor(signal) : undefined,
    })
    await upload.done()
  }

  /** Size, ETag and our SHA-256 of an object; null when it is not there. */
  async head(key: string): Promise<ObjectFacts | null> {
    try {
      const out = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      )
      return { size: out.ContentLength ?? 0, etag: out.ETag ?? null, sha256: out.Metadata?.sha256 ?? null }
    } catch (error) {
      if (isNotFound(error)) return null
      throw error
    }
  }

  /** The object's bytes (a range of them: inclusive `start`–`end`), as a Node stream. */
  async read(key: string, range?: { start: number; end: number }, signal?: AbortSignal): Promise<Readable> {
    const out = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
      { abortSignal: signal },
    )
    return out.Body as Readable
  }

  /** Reads the whole object back and hashes it: what the bucket really holds. */
  async hashObject(key: string, signal?: AbortSignal): Promise<{ sha256: string; size: number }> {
    const meter = hashingPassThrough()
    await pipeline(await this.read(key, undefined, signal), meter.stream, discardAll(), { signal })
    return meter.result()
  }

  /**
   * Streams the object into `target` (through `target.partial`, flushed, then renamed) and
   * returns its SHA-256 and size; nothing is left at `target` on failure.
   */
  async downloadTo(key: string, target: string, signal?: AbortSignal) {
    await fs.promises.mkdir(path.dirname(target), { recursive: true })
    const partial = `${target}.${crypto.randomBytes(6).toString('hex')}.partial`
    const meter = hashingPassThrough()
    try {
      await pipeline(await this.read(key, undefined, signal), meter.stream, fs.createWriteStream(partial), {
        signal,
      })
      const handle = await fs.promises.open(partial, 'r+')
      await handle.sync().finally(() => handle.close())
      const result = meter.result()
      return { ...result, commit: () => fs.promises.rename(partial, target), partial }
    } catch (error) {
      await fs.promises.rm(partial, { force: true })
      throw error
    }
  }

  /** Deletes an object (a missing one is no error: S3 answers 204 either way). */
  async remove(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }))
  }

  /** Every object under a key prefix (keys without S3_PREFIX), page by page. */
  async *list(under = ''): AsyncGenerator<{ key: string; size: number }> {
    let token: string | undefined
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.objectKey(under),
          ContinuationToken: token,
        }),
      )
      for (const item of page.Contents ?? []) {
        if (item.Key) yield { key: item.Key.slice(this.prefix.length), size: item.Size ?? 0 }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
  }

  /** A short-lived GET URL for a browser (the bucket's CORS must allow the site's origin). */
  presignedGetUrl(
    key: string,
    { expiresIn = 300, contentType }: { expiresIn?: number; contentType?: string } = {},
  ) {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        ResponseContentType: contentType,
      }),
      { expiresIn },
    )
  }

  destroy() {
    this.client.destroy()
  }
}

function discardAll() {
  return new Writable({ write: (_chunk, _enc, done) => done() })
}

function abortControllerFor(signal: AbortSignal) {
  const controller = new AbortController()
  if (signal.aborted) controller.abort()
  else signal.addEventListener('abort', () => controller.abort(), { once: true })
  return controller
}

/** The origin browsers reach the bucket at (path-style endpoint, or AWS's virtual-hosted name), for the CSP. */
export function bucketOrigin(settings: S3Settings) {
  return settings.endpoint
    ? new URL(settings.endpoint).origin
    : `https://${settings.bucket}.s3.${settings.region}.amazonaws.com`
}

let shared: ObjectStore | null = null

/** The configured bucket (S3_ settings); throws when there is none. */
export function objectStore(): ObjectStore {
  if (!shared) {
    const settings = s3SettingsFrom()
    if (!settings) throw new Error(`No bucket configured: set ${S3_REQUIRED_SETTINGS.join(', ')}.`)
    shared = new ObjectStore(settings)
  }
  return shared
}

/** Tests switch buckets between files; this drops the cached client. */
export function resetObjectStore() {
  shared?.destroy()
  shared = null
}

/** Whether stored files go to the bucket (FILE_STORE=s3). */
export function usesBucket() {
  return getEnv().FILE_STORE === 's3'
}
