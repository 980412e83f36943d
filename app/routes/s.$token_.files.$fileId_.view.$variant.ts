/**
 * GET /s/{token}/files/{fileId}/view/cog|preview|thumbnail — a shared deliverable's
 * viewing copies (ADR 233), with byte ranges so a map reads only what it shows. View-only
 * links may use them: they are for looking, not the original. Not counted as downloads.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { sendFile } from '#app/domain/files/download.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { clientIpOf } from '#app/domain/http/context.ts'
import { DomainError } from '#app/domain/http/domain-error.ts'
import {
  openShareToken,
  readyViews,
  sharedFile,
  VIEW_VARIANTS,
  viewCopyOf,
  withShareErrors,
  type ViewVariant,
} from '#app/domain/sharing/share-access.server.ts'

const NO_VIEW_MESSAGE = 'This file has no viewing copy yet'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return withShareErrors(async () => {
    const share = await openShareToken(params.token, clientIpOf(context))
    const file = sharedFile(share, params.fileId)
    const variant = VIEW_VARIANTS.find((v) => v === params.variant) as ViewVariant | undefined
    if (!variant) throw new DomainError(404, NO_VIEW_MESSAGE)
    const copy = viewCopyOf(readyViews([file.id]).get(file.id), variant)
    if (!copy) throw new DomainError(404, NO_VIEW_MESSAGE)
    return sendFile(request, {
      path: copy.path,
      size: copy.size,
      mime: copy.mime,
      sha256: null,
      downloadName: copy.name,
    })
  })
}

export const action = () => methodNotAllowed(['GET'])
