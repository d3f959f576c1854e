// Errors of exports, pulls and queries that are the caller's to fix.

/**
 * Bad input to an export, a pull or a query: an unknown round, a refused statement, a format that cannot go where it
 * was asked to. Named InputError so the CLI exits 2 on it, as on every bad-input error.
 */
export class ExportInputError extends Error {
  override name = 'InputError';
}
