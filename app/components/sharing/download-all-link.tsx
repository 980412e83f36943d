/** "Download all": every deliverable and checksums.sha256 in one streamed ZIP. A plain link. */
export function DownloadAllLink({ projectId }: { projectId: number }) {
  return (
    <p className="mt-3 flex flex-wrap items-center gap-3 text-sm text-ink-600">
      <a
        href={`/api/projects/${projectId}/download-all`}
        className="btn-secondary btn-sm"
        download
        data-testid="download-all"
      >
        Download all (ZIP)
      </a>
      <span>Every deliverable in one file, with SHA-256 checksums.</span>
    </p>
  )
}
