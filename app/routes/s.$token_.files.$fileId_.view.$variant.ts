/**
 * GET /s/{token}/files/{fileId}/view/cog|preview|thumbnail — a shared deliverable's
 * viewing copies (ADR 233), with byte ranges so a map reads only what it shows. View-only
 * links may use them: they are for looking, not the original. Not counted as downloads.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { DELIVERABLE_MESSAGES, VIEW_FILES } from '#app/domain/deliverables/deliverable.ts'
import { viewFileOf } from '#app/domain/deliverables/deliverables.server.ts'
import { sendViewFile } from '#app/domain/deliverables/view-files.server.ts'
import { methodNotAllowed } from '#app/domain/http/api.server.ts'
import { clientIpOf } from '#app/domain/http/context.ts'
import { DomainError } from '#app/domain/http/domain-error.ts'
import { openShareToken, sharedFile, withShareErrors } from '#app/domain/sharing/share-access.server.ts'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return withShareErrors(async () => {
    const share = await openShareToken(params.token, clientIpOf(context))
    const file = sharedFile(share, params.fileId)
    const which = VIEW_FILES.find((v) => v === params.variant)
    if (!which) throw new DomainError(404, DELIVERABLE_MESSAGES.viewNotReady)
    return sendViewFile(request, viewFileOf(share.project.id, file.id, which))
  })
}

export const action = () => methodNotAllowed(['GET'])
