import "./zod-locale";

export * from "./admin";
export * from "./auth";
export * from "./checkout";
export * from "./constants";
export * from "./dates";
export * from "./errors";
export * from "./events";
export * from "./messages";
export * from "./orders";
export * from "./text";
