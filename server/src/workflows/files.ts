/**
 * Small pure helpers over file references that several node kinds share (which formats a file
 * is, name matching, de-duplication and safe file names): the shared ones, which the browser
 * runner uses too.
 */
export { fileFormats, matchesPrefixSuffix, MAX_FILENAME, safeFilename, splitExtension, uniqueFiles } from "@vektor/shared/workflows/files";
