import sanitizeHtml from "sanitize-html";

/**
 * The allow-list of mail HTML: the editor's formatting, links (http, https, mailto; a "button" class)
 * and images. Scripts, event handlers, styles and javascript: links are removed. Applied to a template
 * when it is saved (template variables, `{{…}}`, are plain text to it and survive) and again to the
 * rendered content of every mail and preview: what is sent is what was sanitised, whatever the
 * template language did in between (ADR 0057).
 */
export function sanitizeMailHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      "p",
      "br",
      "h1",
      "h2",
      "h3",
      "strong",
      "b",
      "em",
      "i",
      "u",
      "s",
      "ul",
      "ol",
      "li",
      "blockquote",
      "a",
      "img",
      "hr",
      "span",
    ],
    allowedAttributes: {
      a: ["href", "target", "rel", "class"],
      img: ["src", "alt", "width", "height"],
      p: ["style"],
      li: ["style"],
      h1: ["style"],
      h2: ["style"],
      h3: ["style"],
    },
    allowedStyles: {
      "*": { "margin-left": [/^\d{1,3}(px|em|rem)$/], "padding-left": [/^\d{1,3}(px|em|rem)$/] },
    },
    allowedClasses: { a: ["button"] },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["http", "https"] },
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: attribs.target === "_blank" ? { ...attribs, rel: "noopener noreferrer" } : attribs,
      }),
    },
  });
}
