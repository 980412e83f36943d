/**
 * The file forms on pages (no-JavaScript uploads and the delete buttons), for any page
 * action: `handleUploadForm` for a multipart post (call it BEFORE `request.formData()`),
 * `handleFileIntent` for `intent=delete-file` or the land owner panel's
 * `remove-land-owner-form` (field `fileId`). Both answer with a redirect back to the page the
 * form posted to, carrying the product's toast.
 */
import { receiveMultipartUpload } from '#app/domain/files/multipart.server.ts'
import { deleteProjectFile } from '#app/domain/files/project-files.server.ts'
import { FILE_MESSAGES, type FileCategory } from '#app/domain/files/rules.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { assertSameOrigin } from '#app/lib/http/origin.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'
import type { User } from '#db/schema.ts'

/** The file forms' intents (a file's deletion; a land owner agreement's removal), as the pages read them. */
export const FileIntents = intentSchema('delete-file', 'remove-land-owner-form')

/** The page the form posted to (path and query, without Remix's `index`/`_data`). */
function backTo(request: Request) {
  const url = new URL(request.url)
  url.searchParams.delete('index')
  url.searchParams.delete('_data')
  const search = url.searchParams.toString()
  return `${url.pathname}${search ? `?${search}` : ''}`
}

function successTitle(category: FileCategory) {
  return category === 'land_owner_agreement' ? FILE_MESSAGES.landOwnerUploaded : FILE_MESSAGES.uploadSuccess
}

/** A multipart upload from a page form: stored through the one storage service. */
export async function handleUploadForm(
  request: Request,
  user: Pick<User, 'id' | 'role'>,
  defaultCategory: FileCategory = 'project_document',
  back: string = backTo(request),
) {
  assertSameOrigin(request)
  try {
    const { file } = await receiveMultipartUpload(request, user, { defaultCategory })
    return redirectWithToast(back, {
      title: successTitle(file.fileCategory),
      description: file.originalName,
      type: 'success',
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    const title = typeof error.extra.title === 'string' ? error.extra.title : FILE_MESSAGES.uploadFailedTitle
    return redirectWithToast(back, { title, description: error.message, type: 'error' })
  }
}

export async function handleFileIntent(
  request: Request,
  user: Pick<User, 'id' | 'role'>,
  formData: FormData,
  back: string = backTo(request),
) {
  // The land owner panel removes only an agreement, with its own failure words.
  const landOwner = readIntent(formData, FileIntents) === 'remove-land-owner-form'
  try {
    const only = landOwner ? 'land_owner_agreement' : undefined
    const file = await deleteProjectFile(user, Number(formData.get('fileId')), { only })
    const title =
      file.fileCategory === 'land_owner_agreement' ? FILE_MESSAGES.landOwnerDeleted : FILE_MESSAGES.deleted
    return redirectWithToast(back, { title, description: file.originalName, type: 'success' })
  } catch (error) {
    if (!isDomainError(error)) throw error
    return redirectWithToast(back, {
      title: landOwner ? FILE_MESSAGES.removeFailedTitle : FILE_MESSAGES.deleteFailedTitle,
      description: landOwner ? FILE_MESSAGES.removeFailed : FILE_MESSAGES.deleteFailed,
      type: 'error',
    })
  }
}
