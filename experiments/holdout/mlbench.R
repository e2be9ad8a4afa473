# Writes data sets of R's mlbench package (Debian: r-cran-mlbench) as CSV
# files, one per set, the class last, missing values empty:
#   Rscript mlbench.R OUT
library(mlbench)
out <- commandArgs(trailingOnly = TRUE)[1]
dir.create(out, showWarnings = FALSE, recursive = TRUE)
sets <- list(Vehicle = "Class", Vowel = "Class", Satellite = "classes", DNA = "Class",
             PimaIndiansDiabetes2 = "diabetes", BreastCancer = "Class", Zoo = "type")
for (n in names(sets)) {
  e <- new.env(); data(list = n, envir = e); x <- get(n, envir = e)
  x$Id <- NULL # BreastCancer's sample code number
  y <- as.character(x[[sets[[n]]]]); x[[sets[[n]]]] <- NULL
  for (j in seq_along(x)) if (is.factor(x[[j]]) || is.logical(x[[j]])) x[[j]] <- as.character(x[[j]])
  x$class <- y
  write.csv(x, file.path(out, paste0(tolower(n), ".csv")), row.names = FALSE, na = "")
  cat(n, nrow(x), ncol(x) - 1, length(unique(y)), "\n")
}
