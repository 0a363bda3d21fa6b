module github.com/ndb-project/ndb

go 1.26.8
