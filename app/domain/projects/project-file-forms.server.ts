/**
 * The admin project dialogs' file forms (no-JavaScript uploads and delete buttons): a
 * multipart post is stored through the files service, `intent=delete-file` removes one.
 * Both answer with a redirect back carrying the spec's toast.
 */
import type { User } from '#db/schema.ts'
import { deleteProjectFile } from '#app/domain/files/file-storage.server.ts'
import { receiveMultipartUpload } from '#app/domain/files/multipart.server.ts'
import { FILE_MESSAGES, type FileCategory } from '#app/domain/files/rules.ts'
import { isDomainError } from '#app/domain/http/domain-error.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'

type Actor = Pick<User, 'id' | 'role'>

export async function uploadFromForm(request: Request, user: Actor, back: string, defaultCategory: FileCategory) {
  try {
    const { file } = await receiveMultipartUpload(request, user, { defaultCategory })
    return redirectWithToast(back, { title: FILE_MESSAGES.uploadSuccess, description: file.originalName })
  } catch (error) {
    if (!isDomainError(error)) throw error
    const title = typeof error.extra.title === 'string' ? error.extra.title : FILE_MESSAGES.uploadFailedTitle
    return redirectWithToast(back, { title, description: error.message, type: 'error' })
  }
}

export async function deleteFromForm(user: Actor, formData: FormData, back: string) {
  try {
    const file = await deleteProjectFile(user, Number(formData.get('fileId')))
    return redirectWithToast(back, { title: FILE_MESSAGES.deleted, description: file.originalName })
  } catch (error) {
    if (!isDomainError(error)) throw error
    return redirectWithToast(back, { title: FILE_MESSAGES.deleteFailedTitle, description: FILE_MESSAGES.deleteFailed, type: 'error' })
  }
}
