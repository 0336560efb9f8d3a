

summfum