/** The few piexifjs calls the geotagged-photo fixtures use (the package ships no types). */
declare module 'piexifjs' {
  type IfdData = Record<number, unknown>
  interface ExifObject {
    '0th'?: IfdData
    Exif?: IfdData
    GPS?: IfdData
  }
  const piexif: {
    dump(exif: ExifObject): string
    insert(exifBytes: string, jpeg: string): string
    ImageIFD: Record<string, number>
    ExifIFD: Record<string, number>
    GPSIFD: Record<string, number>
    GPSHelper: { degToDmsRational(deg: number): [number, number][] }
  }
  export default piexif
}
