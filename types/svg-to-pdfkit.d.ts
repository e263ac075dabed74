// Declarations for svg-to-pdfkit 0.1.8 (ships no types): the one function, as its README documents it.
declare module 'svg-to-pdfkit' {
  interface SVGtoPDFOptions {
    width?: number;
    height?: number;
    preserveAspectRatio?: string;
    fontCallback?: (family: string, bold: boolean, italic: boolean, fontOptions: Record<string, unknown>) => string;
    warningCallback?: (message: string) => void;
    assumePt?: boolean;
    precision?: number;
  }
  /** Draws `svg` (XML text) into the pdfkit document `doc` at (x, y). */
  export default function SVGtoPDF(doc: PDFKit.PDFDocument, svg: string, x?: number, y?: number, options?: SVGtoPDFOptions): void;
}
