import { isLegalImageSrc, isLegalLinkHref, LEGAL_HTML } from "@app/shared";
import { createElement, type ReactNode } from "react";

/**
 * Admin-written HTML (the legal pages) as React elements, never as raw markup: the API
 * already stores only allow-listed HTML, and this builds nothing but the same allow-list (`LEGAL_HTML`), so a
 * sanitiser bug on the server still cannot put a script, a handler or a foreign image on the page.
 */

const TAGS = new Set<string>(LEGAL_HTML.tags);
const VOID_TAGS = new Set<string>(LEGAL_HTML.voidTags);

function attributesOf(element: Element, key: number): Record<string, string | number> | null {
  const props: Record<string, string | number> = { key };
  const tag = element.tagName.toLowerCase();
  if (tag === "a") {
    const href = element.getAttribute("href") ?? "";
    if (isLegalLinkHref(href)) {
      props.href = href;
    }
    if (element.getAttribute("target") === "_blank") {
      props.target = "_blank";
      props.rel = "noopener noreferrer";
    }
  }
  if (tag === "img") {
    const src = element.getAttribute("src") ?? "";
    if (!isLegalImageSrc(src)) {
      return null;
    }
    props.src = src;
    props.alt = element.getAttribute("alt") ?? "";
    for (const size of ["width", "height"]) {
      const value = Number(element.getAttribute(size));
      if (Number.isInteger(value) && value > 0) {
        props[size] = value;
      }
    }
  }
  return props;
}

function toReact(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) {
    return node.textContent;
  }
  if (!(node instanceof Element)) {
    return null;
  }
  const children = Array.from(node.childNodes, toReact);
  const tag = node.tagName.toLowerCase();
  if (!TAGS.has(tag)) {
    // unknown wrappers keep their text; scripts and styles go entirely
    return ["script", "style", "template"].includes(tag) ? null : children;
  }
  const props = attributesOf(node, key);
  if (!props) {
    return null;
  }
  return VOID_TAGS.has(tag) ? createElement(tag, props) : createElement(tag, props, ...children);
}

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const body = new DOMParser().parseFromString(html, "text/html").body;
  return <div className={className}>{Array.from(body.childNodes, toReact)}</div>;
}
